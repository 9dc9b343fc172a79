"""Building and retiring versions: the one path every write takes to stop believing a version."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from credo.graph import facts as fact_repo
from credo.graph.db import Tx
from credo.graph.ledger import new_id
from credo.schema.errors import InvalidInput, NotFound
from credo.schema.facts import Fact


def next_version(base: Fact, known: datetime, **changes: Any) -> Fact:
    """A new version of the same fact: fresh version id, believed from `known`, with `changes` applied."""
    reset = {"version_id": new_id("v"), "known_from": known, "known_to": None, "ended_by": None, "end_reason": None,
             "disputed": False}
    return base.model_copy(update={**reset, **changes})


def replace(tx: Tx, known: datetime, pairs: list[tuple[Fact, Fact]]) -> None:
    """Write new versions that replace old ones of the same claim, carrying their evidence and premises."""
    fact_repo.create_versions(tx, [new for _old, new in pairs])
    fact_repo.carry_edges(tx, known, [(old.version_id, new.version_id) for old, new in pairs])


def retire(tx: Tx, known: datetime, closing: list[tuple[Fact, str, str | None]]) -> None:
    """Stop believing versions now, recording how and why; every write that ends a belief goes through here."""
    fact_repo.close_versions(tx, known, [(f.version_id, how, why) for f, how, why in closing])
    changes(tx).facts.extend(closing)


def restate(tx: Tx, known: datetime, moves: list[tuple[str, str | None]], *, state: str, how: str, why: str) -> list[str]:
    """Successors in another state for (current version id, stale cause) pairs, same claim and edges, the old
    versions retired with how/why, in one query; returns the new version ids. The cascade's own path: it does not
    log the change, the cascade that calls it has already walked past these facts."""
    new_ids = [new_id("v") for _ in moves]
    fact_repo.restate_versions(tx, known, state=state, ended_by=how, reason=why,
                               rows=[(old, new, cause) for (old, cause), new in zip(moves, new_ids)])
    return new_ids


@dataclass
class Changes:
    """What this write transaction stopped believing; Context.write runs the cascade from it before commit."""

    facts: list[tuple[Fact, str, str | None]] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)


def changes(tx: Tx) -> Changes:
    """The change log of this transaction (created on first use; a retried transaction gets a fresh Tx)."""
    log = getattr(tx, "credo_changes", None)
    if log is None:
        log = Changes()
        setattr(tx, "credo_changes", log)
    return log


def current_versions(tx: Tx, tenant: str, ref: str) -> list[Fact]:
    """Versions believed now for a fact id, or the one version a version id names (refused if not current)."""
    if ref.startswith("v_"):
        found = fact_repo.version(tx, tenant, ref)
        if found is None:
            raise NotFound("fact version", ref)
        return [found]
    versions = fact_repo.versions_of(tx, tenant, ref)
    if not versions:
        raise NotFound("fact", ref)
    return [v for v in versions if v.known_to is None]


def the_current(tx: Tx, tenant: str, ref: str) -> Fact:
    """The single version believed now for `ref`; a clear error if there is none, or several."""
    from credo.schema.errors import NotCurrent

    found = current_versions(tx, tenant, ref)
    if not found:
        raise NotCurrent(ref, "no version of this fact is believed now (it was retracted, corrected or superseded)")
    current = [v for v in found if v.known_to is None]
    if not current:
        raise NotCurrent(ref, f"version {found[0].version_id} is no longer current; read history() for the current one")
    if len(current) > 1:
        ids = ", ".join(v.version_id for v in current)
        raise InvalidInput("fact_id", f"has {len(current)} current versions after a range write ({ids}); pass a version id")
    return current[0]
