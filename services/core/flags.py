"""Lifecycle state changes of fact versions, as flags: the one step every state change of a fact takes.

A state change that does not change what a claim says (stale, re-verified, reinforced, deprecated, quarantined,
released) is checked against the one transition table (schema/lifecycle.py) and written as a flag with its own
known interval (graph/core/flags.py draws the shape and says why); the version itself stays as it was written. A move
out of the served states is noted on the unit of work, so the cascade re-checks what rested on it before commit.
"""

from __future__ import annotations

from datetime import datetime

from credo.graph.core import flags as flag_repo
from credo.graph.core.flags import FlagRow
from credo.schema.facts import EndKind, Fact
from credo.schema.lifecycle import check_transition, is_served
from credo.services.core.unit_of_work import Write


def flag_states(
    w: Write, moves: list[tuple[Fact, str, str | None]], *, kind: str,
    actor: str | None = None, reason: str | None = None, verified_at: datetime | None = None, notify: bool = True,
    refresh: bool = False, defer: bool = False, paths: list[tuple[str, ...]] | None = None,
) -> dict[str, str]:
    """Move (version, target state, cause) current versions to their targets by the transition table, as flags in
    one query; TransitionRefused (naming both states) before anything is written if any move is not allowed.
    With `notify`, versions leaving or re-entering the served states are handed to the cascade (its support
    rule reads what is believed after this write, and summaries tracing them are re-checked) (the cascade itself passes False:
    its walk has already gone past them). With `refresh`, a move to the state a version is already in is allowed
    (a re-confirmation: it records the verification, it changes no state). A cascade gives each move's `paths`
    (from the root its cause line names). Returns the flagged versions' statements by version id (what a report
    names). With `defer`, the flags are written by the write's closing
    statement (`ledger.finish`) instead, and {} is returned (graph/core/flags.py `deferred_statements` has them after)."""
    allowed: dict[tuple[str, str], str] = {}  # (from, to) pairs the table allowed (a cascade moves thousands alike)

    def checked(f: Fact, target: str) -> str:
        if refresh and target == f.state:
            return target
        pair = (f.state, target)
        found = allowed.get(pair)
        if found is None:
            found = allowed[pair] = check_transition(f.fact_id, f.state, target).value
        return found

    rows = [FlagRow(version_id=f.version_id, from_state=f.state, cause=cause, path=paths[i] if paths else None,
                    state=checked(f, target)) for i, (f, target, cause) in enumerate(moves)]
    if defer:
        flag_repo.defer(w.tx, w.tenant, rows, kind=kind, actor=actor, reason=reason, verified_at=verified_at)
        texts: dict[str, str] = {}
    else:
        texts = flag_repo.write(w.tx, w.tenant, w.known, rows, kind=kind, actor=actor, reason=reason,
                                verified_at=verified_at)
    if notify:
        w.changes.facts.extend((f, EndKind.STATE_CHANGE.value, reason) for f, target, _cause in moves
                               if is_served(f.state) != is_served(target))
    return texts
