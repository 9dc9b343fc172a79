"""Pure rules of the hash-chained ledger: walk a tenant's events in seq order and name what breaks the chain.

A chained event must (1) hash to its stored `hash` (else it was *changed*), (2) name the previous event's hash as
its `prev_hash` and sit at the next `seq` (an extra event at a taken or unissued position, or without a seq after
the chain began, was *inserted*; a missing position was *removed*), and (3) the last one must match the head the
clock records (so a removed or re-hashed tail is caught too). A free-text field chained through a commitment may be
redacted by forgetting (schema/ledger.py); any other change to it is a change.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from credo.schema.ledger import LedgerProblem, commitment_holds, event_hash


def hash_holds(row: dict[str, Any]) -> bool:
    """The stored hash is the hash of the stored fields, and each committed free-text field still holds (or was
    redacted)."""
    try:
        return row.get("hash") == event_hash({**row, "operation": row.get("action")}) and commitment_holds(row)
    except (TypeError, ValueError, AttributeError):
        return False


def check_chain(rows: Iterable[dict[str, Any]], *, head_seq: int, head_hash: str) -> list[LedgerProblem]:
    """Problems of the chained events `rows` (sorted by seq) against the clock's head (seq, hash)."""
    by_seq: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_seq.setdefault(int(row["seq"]), []).append(row)
    problems: list[LedgerProblem] = []
    prev: str | None = ""
    before: dict[str, Any] | None = None  # the event kept at the previous position
    last_seq = max([head_seq, *by_seq])
    for seq in range(1, last_seq + 1):
        found = by_seq.get(seq, [])
        if seq > head_seq:
            problems += [LedgerProblem(kind="inserted", event_id=r["event_id"], seq=seq,
                                       detail=f"at position {seq}, beyond the chain's head {head_seq}") for r in found]
            continue
        if not found:
            after = next((by_seq[s][0] for s in range(seq + 1, last_seq + 1) if by_seq.get(s)), None)
            problems.append(LedgerProblem(kind="removed", seq=seq, event_id=after["event_id"] if after else None,
                                          detail=f"no event at position {seq}"
                                          + (f" (the next is {after['event_id']})" if after else " (the last one)")))
            prev, before = None, None  # unknown: resynchronise on the next event's link
            continue
        genuine = [r for r in found if hash_holds(r) and (prev is None or r.get("prev_hash") == prev)]
        keep = genuine[0] if genuine else _best(found, prev)
        for r in found:
            if r is keep:
                continue
            problems.append(LedgerProblem(kind="inserted", event_id=r["event_id"], seq=seq,
                                          detail=f"a second event at position {seq} that does not continue the chain"))
        if keep is not None and not genuine:
            if not hash_holds(keep):
                problems.append(LedgerProblem(kind="changed", event_id=keep["event_id"], seq=seq,
                                              detail="its fields no longer hash to its stored hash"))
            else:  # the previous event no longer has the hash this one recorded: it was changed and re-hashed
                culprit = before if before is not None else keep
                problems.append(LedgerProblem(kind="changed", event_id=culprit["event_id"], seq=culprit["seq"],
                                              detail=f"re-hashed after the fact: event {keep['event_id']} at "
                                                     f"{seq} recorded a different hash for it"))
        prev = keep.get("hash") if keep is not None else None
        before = keep
        if seq == head_seq and keep is not None and keep.get("hash") != head_hash and hash_holds(keep) and genuine:
            problems.append(LedgerProblem(kind="changed", event_id=keep["event_id"], seq=seq,
                                          detail="the last event's hash is not the head the clock recorded"))
    return problems


def _best(found: list[dict[str, Any]], prev: str | None) -> dict[str, Any] | None:
    """Among events at one position none of which continues the chain, the one most likely original."""
    linked = [r for r in found if prev is not None and r.get("prev_hash") == prev]
    return (linked or found or [None])[0]


def unchained_problems(rows: Iterable[dict[str, Any]], chain_start: datetime | None) -> tuple[int, list[LedgerProblem]]:
    """Events without a seq: written before the chain began (counted), or inserted after it began (problems)."""
    legacy, problems = 0, []
    for row in rows:
        if chain_start is not None and row["at"] >= chain_start or row.get("hash") or row.get("prev_hash"):
            problems.append(LedgerProblem(kind="inserted", event_id=row["event_id"], seq=None,
                                          detail="an event outside the chain, dated after the chain began"))
        else:
            legacy += 1
    return legacy, problems
