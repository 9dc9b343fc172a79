"""What a history is made of: one record per operation as its client saw it, and the state read back at the end.

The recorder (`clients.py`, `run.py`) writes these; the checker (`checker.py`) reads only these, so a hand-made
history tests the checker exactly as a recorded one does. A history file is JSON Lines: one `Op` per line, in the
order the records were completed; the final state is one JSON document beside it.

**Tags.** Every operation has a unique id of fixed width (`c<client>.<seq>`, e.g. `c003.0000017`: a forget
redacts every ledger reason that contains its fact's text, so no id may be a substring of another). Each write
carries it where the store keeps it, so the final state can say whether a write whose outcome is unknown happened:
- `add`, `succeed`, `correct`: the written object is the literal text of the id (`object_is_entity: false`);
- `retract`, `resolve`, `forget`: the `reason` is the id (the ledger event keeps the reason);
- `end` carries no text: the ledger event of operation `end_fact` naming its fact id, in the op's window, decides.

**Times.** `invoked` and `completed` are the client's wall clock (UTC) on the machine the servers run on, so they
compare with the known times the store hands out (`known_at`, `known_from`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

Kind = Literal["add", "succeed", "correct", "end", "retract", "resolve", "forget", "read"]
WRITES: tuple[str, ...] = ("add", "succeed", "correct", "end", "retract", "resolve", "forget")
Outcome = Literal["ok", "refused", "unknown"]

LEDGER_OPERATION = {"add": "add_facts", "succeed": "succeed_fact", "correct": "correct_fact", "end": "end_fact",
                    "retract": "retract_fact", "resolve": "resolve_conflict", "forget": "forget"}
"""The ledger's `operation` for each kind of write (its one event per write; `add_fact` logs `add_facts`, as a batch
of one does: services/facts/record.py)."""


@dataclass
class Row:
    """One fact version as a read served it, or as a write returned it."""

    fact_id: str
    version_id: str
    object: str | None  # the literal object text (an op id); None once forgotten
    valid_from: datetime | None
    valid_to: datetime | None
    known_from: datetime | None = None
    state: str | None = None  # the store's `state` (active, conflicted, retracted, ...)


@dataclass
class Op:
    """One operation: what was asked, when, and what came back."""

    id: str  # c<client>.<seq>; also the tag the write carries
    client: int
    tenant: str
    kind: Kind
    args: dict[str, Any]  # as sent: subject, fact_id, conflict_id, at, valid_from, valid_at, known_at (None: now), ...
    invoked: datetime
    completed: datetime | None  # None: no answer before the run ended
    outcome: Outcome
    code: str | None = None  # refused: the store's error code (e.g. not_current); unknown: timeout / connection
    known_at: datetime | None = None  # a write acknowledged: the known time it returned
    rows: list[Row] = field(default_factory=list)  # a write: the versions it returned; a read: the rows it served
    tombstones: list[str] = field(default_factory=list)  # a read: ids of forgotten facts it showed as tombstones


@dataclass
class Version:
    """One stored version, read raw from the graph after the run (content gone once forgotten)."""

    fact_id: str
    version_id: str
    object: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    known_from: datetime
    known_to: datetime | None
    state: str | None
    forgotten: bool


@dataclass
class LedgerEvent:
    """One ledger event, as `GET /v1/audit` returns it (ids only, no content)."""

    seq: int | None
    at: datetime
    operation: str
    subject_id: str | None
    ids: list[str]
    reason: str | None


@dataclass
class Reread:
    """An earlier acknowledged read, issued again at its (valid, known) point after the run."""

    op_id: str
    rows: list[Row]
    tombstones: list[str] = field(default_factory=list)


@dataclass
class Final:
    """The state after the run, per tenant: every stored version, the ledger and whether it verifies, the re-reads."""

    versions: dict[str, list[Version]]
    ledger: dict[str, list[LedgerEvent]]
    ledger_ok: dict[str, bool]
    rereads: list[Reread] = field(default_factory=list)


# -- JSON ------------------------------------------------------------------------------------------------
_TIMES = {"invoked", "completed", "known_at", "valid_from", "valid_to", "known_from", "known_to", "at"}


def _encode(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")


def _times(data: dict[str, Any]) -> dict[str, Any]:
    return {k: datetime.fromisoformat(v) if k in _TIMES and isinstance(v, str) else v for k, v in data.items()}


def op_from_json(data: dict[str, Any]) -> Op:
    data = _times(data)
    return Op(**{**data, "rows": [Row(**_times(r)) for r in data.get("rows", [])]})


def final_from_json(data: dict[str, Any]) -> Final:
    return Final(
        versions={t: [Version(**_times(v)) for v in vs] for t, vs in data["versions"].items()},
        ledger={t: [LedgerEvent(**_times(e)) for e in es] for t, es in data["ledger"].items()},
        ledger_ok=dict(data["ledger_ok"]),
        rereads=[Reread(op_id=r["op_id"], rows=[Row(**_times(x)) for x in r["rows"]],
                        tombstones=list(r.get("tombstones", []))) for r in data.get("rereads", [])],
    )


def dump_ops(ops: list[Op], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for op in ops:
            out.write(json.dumps(asdict(op), default=_encode, ensure_ascii=False) + "\n")


def load_ops(path: Path) -> list[Op]:
    return [op_from_json(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def dump_final(final: Final, path: Path) -> None:
    path.write_text(json.dumps(asdict(final), default=_encode, ensure_ascii=False), encoding="utf-8")


def load_final(path: Path) -> Final:
    return final_from_json(json.loads(path.read_text(encoding="utf-8")))
