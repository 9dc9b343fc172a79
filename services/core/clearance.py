"""A caller's clearance on the write side: what a write may label, act on, and name in its answer.

Reads enforce clearance inside their queries (cypher/fragments/visible.cypher, its `$levels` supplied by `Tx.rows`
from the store's Context). Writes run their look-ups through the same queries, so a revision, a curation or a
forget of an id above the caller's clearance finds nothing and answers NotFound exactly like a missing id; the
steps here cover what a look-up cannot:

- `label`: the sensitivity a write records. A label above the caller's clearance is refused (Forbidden, naming
  `sensitivity`); an unlabelled write by a caller cleared below `internal` (the level unlabelled versions count as)
  is labelled with the caller's clearance, so it can read what it wrote.
- `check_target`: an id whose content is above the caller's clearance (any version of a fact, a source the caller
  may not see, an entity one is about, a summary) answers NotFound, for acts that reach all of it (forget, purge,
  merges).

Sources follow one rule, cypher/fragments/visible_source.cypher: a source is labelled like a fact (`label`) and is
hidden from a caller who may not see its label or a fact version it is evidence for (SOURCED_FROM, ACCEPTED_IN).
Every read of a source by id or by session applies it (graph/gate/sources.py), so the write gate, acceptance,
extraction, cite, quarantine and release meet a hidden message or document exactly as a missing one.
- `bound_by`: a version names (`bounded_by`) only an established version every reader of it may see; a bound by a
  more sensitive value keeps its date and names nothing.
- `uncarved`: a range write that would split a version above the caller's clearance is refused (Forbidden,
  naming `valid_from`): no act by a key changes a version above its clearance.
- `purged_label` / `check_purged`: a purge records the most sensitive label of what it deletes; its tombstone
  answers NotFound to a caller who could not have seen that content, exactly as for an id never held.
- `withheld`: a write's cascade report names only what the caller may see; the rest is counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from credo.graph.core import clearance as clearance_repo
from credo.graph.core.db import Tx
from credo.schema.cascade import CascadeReport
from credo.schema.errors import Forbidden, NotFound
from credo.schema.facts import Fact, FactCreate
from credo.schema.search import CLEARANCE_ALL, UNLABELLED, can_see, check_clearance, most_sensitive, readers_see
from credo.schema.time import overlaps


def label(clearance: str, sensitivity: str | None) -> str | None:
    """The sensitivity a write by a caller of `clearance` records for `sensitivity` (None = unlabelled); Forbidden
    when it is above the caller's clearance (pure rule)."""
    level = check_clearance(clearance)
    if sensitivity is None:
        return None if can_see(level, UNLABELLED) else level
    if not can_see(level, sensitivity):
        raise Forbidden("sensitivity", f"{sensitivity!r} is above your clearance {level!r}; a key cleared for it "
                                       "must write it")
    return sensitivity


def labelled(clearance: str, rows: Sequence[FactCreate]) -> list[FactCreate]:
    """The rows a write by a caller of `clearance` records, each with the label `label` gives it."""
    if check_clearance(clearance) == CLEARANCE_ALL:
        return list(rows)
    return [r if (given := label(clearance, r.sensitivity)) == r.sensitivity
            else r.model_copy(update={"sensitivity": given}) for r in rows]


def named(clearance: str, fact: Fact, *, fallback: str) -> tuple[str, str]:
    """(identifier, "fact <id> holds <object>") for a refusal that names another fact, or (`fallback`, "a fact above
    your clearance holds a value") when the caller may not see it: a refusal never carries its content."""
    if can_see(check_clearance(clearance), fact.sensitivity):
        return fact.fact_id, f"fact {fact.fact_id} holds {fact.object_name!r}"
    return fallback, "a fact above your clearance holds a value"


def uncarved(clearance: str, current: Sequence[Fact], start: datetime | None, end: datetime | None) -> None:
    """Forbidden (field `valid_from`) when a range write over [start, end) would split a version the caller may not
    see: no act by a key changes a version above its clearance. The refusal says only that such a value overlaps
    the range (one bit, as the conflict rule's), never which or what (pure rule)."""
    level = check_clearance(clearance)
    if level == CLEARANCE_ALL:
        return
    if any(not can_see(level, f.sensitivity) for f in current if overlaps(f.valid_from, f.valid_to, start, end)):
        raise Forbidden("valid_from", "the range overlaps a value above your clearance: a key cleared for it must "
                                      "write this range")


def bound_by(sensitivity: str | None, bounding: Any) -> str | None:
    """The `bounded_by` a version labelled `sensitivity` records for the established version that bounds it: its id
    when every reader of the version may see that one, else None (the bound itself stays: its date is the one bit
    the conflict rule gives away). A version never names a version more sensitive than itself (pure rule)."""
    return bounding.version_id if readers_see(sensitivity, bounding.sensitivity) else None


# the label of a purge recorded before purges kept one: only a caller cleared for all may read its tombstone
UNRECORDED = "unrecorded"


def purged_label(labels: Sequence[str | None]) -> str:
    """The label a purge records for the content it deletes: the most sensitive it had (lower case; unlabelled
    counts as internal), so its tombstone answers only a caller who could have seen that content (pure rule)."""
    return (most_sensitive(list(labels)) or UNLABELLED).strip().lower()


def check_purged(clearance: str, recorded: str | None, kind: str, ref: str) -> None:
    """NotFound(kind, ref), exactly as for an id never held, when a purged id's recorded label is above the
    caller's clearance (a purge recorded without one is read only with clearance all)."""
    if not can_see(check_clearance(clearance), recorded or UNRECORDED):
        raise NotFound(kind, ref)


def check_target(tx: Tx, tenant: str, ref: str, kind: str, *, name: str | None = None,
                 current_only: bool = False) -> None:
    """NotFound(kind, name or ref), exactly as for a missing id or name, when `ref` names content above the
    caller's clearance."""
    if clearance_repo.hidden(tx, tenant, ref, current_only=current_only):
        raise NotFound(kind, name or ref)


def everything(clearance: str, act: str) -> None:
    """Forbidden unless the caller's clearance covers every label: for acts that reach the whole tenant."""
    if check_clearance(clearance) != CLEARANCE_ALL:
        raise Forbidden("clearance", f"to {act} a key must be cleared for every label ('all'), not "
                                     f"{clearance!r}: it reaches content above your clearance")


def withheld(tx: Tx, tenant: str, report: CascadeReport | None) -> CascadeReport | None:
    """The report as the caller may read it: a flagged fact or summary above its clearance is counted in
    `withheld`, not named; a cause whose premise is above it names the premise by id only."""
    if report is None or clearance_repo.EVERY in tx.levels or not (report.facts or report.summaries or report.restored):
        return report
    seen = clearance_repo.visible_versions(
        tx, tenant, [v for f in report.facts for v in (f.version_id, f.cause.premise_version_id) if v],
        [s.version_id for s in report.summaries + report.restored])
    facts = [f if f.cause.premise_version_id in seen else f.model_copy(update={"cause": f.cause.without_content()})
             for f in report.facts if f.version_id in seen]
    summaries = [s for s in report.summaries if s.version_id in seen]
    restored = [s for s in report.restored if s.version_id in seen]
    hidden = (len(report.facts) - len(facts)) + (len(report.summaries) - len(summaries)) + (
        len(report.restored) - len(restored))
    return report.model_copy(update={"facts": facts, "summaries": summaries, "restored": restored,
                                     "withheld": report.withheld + hidden})
