"""Building and retiring versions: the one path every write takes to stop believing a version."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from credo.graph.core import clearance as clearance_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core.db import Tx
from credo.graph.core.ledger import new_id
from credo.schema.errors import InvalidInput, NotCurrent, NotFound
from credo.schema.facts import Fact
from credo.schema.names import check_ref
from credo.services.core.context import Context
from credo.services.core.unit_of_work import UnforeseenStatements, Write
from credo.schema.search import readers_see
from credo.services.facts.rules import split_outside


def next_version(base: Fact, known: datetime, **changes: Any) -> Fact:
    """A new version of the same fact: fresh version id, believed from `known`, with `changes` applied. Relabelled
    for readers who may not see the old label, it no longer names the version that bounded it (services/core/clearance.py
    `bound_by`: that one was at most as sensitive as the old label)."""
    reset = {"version_id": new_id("v"), "known_from": known, "known_to": None, "ended_by": None, "end_reason": None,
             "disputed": False}
    return base.model_copy(update={**reset, **unbound(base, changes)})


def unbound(base: Fact, changes: dict[str, Any]) -> dict[str, Any]:
    """`changes` to `base`, with its `bounded_by` dropped when they relabel it for readers who may not see its old
    label (pure rule)."""
    if (base.bounded_by and "sensitivity" in changes and "bounded_by" not in changes
            and not readers_see(changes["sensitivity"], base.sensitivity)):
        return {**changes, "bounded_by": None}
    return changes


def embeddings_for(w: Write, pairs: list[tuple[Fact | None, Fact]]) -> dict[str, list[float]]:
    """version_id -> vector of each new version's statement, from the vectors computed before the write opened.

    A new version keeping its predecessor's statement needs none (carry_edges copies the predecessor's); any
    other statement nobody embedded aborts the attempt with UnforeseenStatements (Context.write embeds and reruns)."""
    plan = w.vectors
    if not plan.enabled:
        return {}
    found: dict[str, list[float]] = {}
    missing: list[str] = []
    for old, new in pairs:
        if new.statement in plan.by_text:
            found[new.version_id] = plan.by_text[new.statement]
        elif new.statement.strip() and (old is None or old.statement != new.statement):
            missing.append(new.statement)
    if missing:
        raise UnforeseenStatements(missing)
    return found


def create(w: Write, facts: list[Fact], entities: list[dict[str, Any]] | None = None) -> None:
    """Write versions of new claims (nothing carried), each with the embedding of its statement, and first the new
    entities they name (graph/facts.create_versions)."""
    fact_repo.create_versions(w.tx, facts, embeddings_for(w, [(None, f) for f in facts]), entities)


def replace(w: Write, pairs: list[tuple[Fact, Fact]]) -> None:
    """Write new versions that replace old ones of the same claim, carrying their evidence and premises (and the
    embedding, when the statement is unchanged)."""
    fact_repo.create_versions(w.tx, [new for _old, new in pairs], embeddings_for(w, list(pairs)))
    fact_repo.carry_edges(w.tx, w.known, [(old.version_id, new.version_id) for old, new in pairs],
                          {new.version_id for old, new in pairs if old.statement == new.statement})


def carve(
    w: Write, facts: list[Fact], start: datetime | None, end: datetime | None,
    start_precision: str | None, end_precision: str | None, *, how: str, why: str,
) -> tuple[list[Fact], list[Fact]]:
    """FOR PORTION OF [start, end) (None = unbounded): the versions overlapping it stop being believed (how/why)
    and their parts outside it are written again as corrections of them; returns (retired, remaining pieces)."""
    tx, known = w.tx, w.known
    hit, pieces = split_outside(facts, start, end, start_precision, end_precision)
    retire(w, [(f, how, why) for f in hit])
    rest = [next_version(p.source, known, valid_from=p.valid_from, valid_to=p.valid_to,
                         valid_from_precision=p.from_precision, valid_to_precision=p.to_precision,
                         bounded_by=None) for p in pieces]
    replace(w, [(p.source, r) for p, r in zip(pieces, rest)])
    fact_repo.link_supersedes(tx, known, [(r.version_id, p.source.version_id, "correction", None)
                                          for r, p in zip(rest, pieces)])
    return hit, rest


def retire(w: Write, closing: list[tuple[Fact, str, str | None]]) -> None:
    """Stop believing versions now, recording how and why; every write that ends a belief goes through here."""
    fact_repo.close_versions(w.tx, w.known, [(f.version_id, how, why) for f, how, why in closing])
    w.changes.facts.extend(closing)


def retire_current(w: Write, fact_id: str, how: str, why: str | None) -> list[Fact]:
    """Stop believing every current version of a fact now, read and closed in one statement (as `retire` records
    them for the cascade); returns them as they were, [] when none was current."""
    closed = fact_repo.close_current(w.tx, w.tenant, w.known, fact_id, how, why)
    w.changes.facts.extend((f, how, why) for f in closed)
    return closed


def current_versions(tx: Tx, tenant: str, ref: str) -> list[Fact]:
    """Versions believed now for a fact id, or the one version a version id names (refused if not current); a
    fact or version above the caller's clearance is NotFound, exactly like a missing id."""
    ref = check_ref(ref)
    if ref.startswith("v_"):
        found = fact_repo.version(tx, tenant, ref)
        if found is None:
            raise NotFound("fact version", ref)
        return [found]
    versions = fact_repo.versions_of(tx, tenant, ref)  # only those the caller may see
    if not versions:
        raise NotFound("fact", ref)
    current = [v for v in versions if v.known_to is None]
    if not current and clearance_repo.hidden(tx, tenant, ref, current_only=True):
        raise NotFound("fact", ref)  # what it says now is above the caller's clearance: as if it did not exist
    return current


def believed_ids(tx: Tx, tenant: str, refs: Iterable[str]) -> frozenset[str]:
    """The version ids believed now of these facts (fact or version ids; an unknown one adds none)."""
    found: set[str] = set()
    for ref in refs:
        try:
            found |= {v.version_id for v in current_versions(tx, tenant, ref) if v.known_to is None}
        except NotFound:
            pass
    return frozenset(found)


def seen(ctx: Context, refs: Iterable[str]) -> frozenset[str]:
    """What the caller can have seen of these facts: their believed version ids, read before the write's
    transaction waits for the tenant's clock (a concurrent write may land meanwhile; `lost_race` tells)."""
    refs = list(refs)
    return ctx.read(lambda tx: believed_ids(tx, ctx.tenant, refs))


@contextmanager
def lost_race(ref: str, before: frozenset[str], now: Callable[[], frozenset[str]]) -> Iterator[None]:
    """Checks of a write against the versions it found: a refusal is the caller's input at fault only when those
    are the versions it could have seen (`before`); when a concurrent write changed them while this one waited,
    the caller lost a race and is told so (NotCurrent, 409 not_current: re-read, then decide again), never that
    its input was invalid."""
    try:
        yield
    except InvalidInput as refused:
        if now() != before:
            raise NotCurrent(ref, f"a concurrent write changed it while this one waited; re-read it and decide again "
                                  f"(against the new state: {refused.field}: {refused.rule})") from refused
        raise


def the_current(tx: Tx, tenant: str, ref: str) -> Fact:
    """The single version believed now for `ref`; a clear error if there is none, or several."""
    from credo.schema.errors import TransitionRefused
    from credo.schema.lifecycle import State

    found = current_versions(tx, tenant, ref)
    if not found:
        raise NotCurrent(ref, "no version of this fact is believed now (it was retracted, corrected or superseded)")
    current = [v for v in found if v.known_to is None]
    if not current:
        raise NotCurrent(ref, f"version {found[0].version_id} is no longer current; read history() for the current one")
    if current[0].state == State.FORGOTTEN:  # forgotten never comes back: its only exit is purge
        raise TransitionRefused(ref, State.FORGOTTEN.value, State.ACTIVE.value)
    if len(current) > 1:
        ids = ", ".join(v.version_id for v in current)
        raise InvalidInput("fact_id", f"has {len(current)} current versions after a range write ({ids}); pass a version id")
    return current[0]
