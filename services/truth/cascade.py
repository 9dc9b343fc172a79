"""The cascade: inside the write that stopped believing versions, flag what lost its support or its trace.

It registers itself as a pre-commit step of every write (services/core/unit_of_work.py `register`, at the end of
this module; the package root, credo/__init__.py, imports it, so any import of Credo wires it), so no write path can
forget it: `versions.retire()` (the one path that stops believing a fact version) and the summary writes note what
changed on the unit of work (`w.changes`). The walk goes levelwise over fact ids from the changed facts (seeking by
fact id, two levels per query, each version read once) along believed DEPENDS_ON edges, returning ids and support
data only, so its cost grows with the affected part of the graph, not with the store; the support rule runs in
Python over those ids (`tms_rules`), and the flag write returns the statements of what it flagged.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph.truth import dependencies as dep_repo
from credo.graph.truth.dependencies import Dependent
from credo.graph.core import flags as flag_repo
from credo.graph.core.flags import FlagRow
from credo.graph.core import ledger
from credo.graph.truth import summaries as summary_repo
from credo.graph.core.db import Tx
from credo.schema.cascade import CascadeReport, FlaggedFact, FlaggedSummary, StaleCause, Summary
from credo.schema.facts import EndKind, Fact
from credo.schema.lifecycle import State, check_transition, is_served
from credo.schema.search import can_see, least_clearance
from credo.services.truth.rules import (Frontier, believed_now, fact_hash, revision, select_stale, text_hash,
                                      trace_breaks)
from credo.services.core.flags import flag_states
from credo.services.core.unit_of_work import Pending, Write, register

MAX_SUMMARY_VISITS = 3


Region = dict[str, tuple[list[Dependent], list[frozenset[str]]]]


def cascade(w: Write, *, defer: bool = False) -> CascadeReport | None:
    """Run the cascade for what this write stopped believing; None when it stopped believing nothing.

    With `defer` (the pre-commit step, whose next statement closes the write), the fact flags travel with the ledger
    rows in `ledger.finish` when no summary needs re-checking (a re-check reads them); `completed` then names the
    flagged statements in the report."""
    tx, tenant, known = w.tx, w.tenant, w.known
    log = w.changes
    if not log.facts and not log.summaries:
        return None
    retired, log.facts = list(log.facts), []
    changed_summaries, log.summaries = list(log.summaries), []
    first: dict[str, tuple[Fact, str]] = {}
    for fact, how, _why in retired:
        first.setdefault(fact.fact_id, (fact, how))
    changed = sorted(first)
    revised, relabelled = _revisions(tx, tenant, first)
    region, summarized, given = _walk(tx, tenant, changed)
    moves, pending = _losses(tx, tenant, known, changed, first, region, given, revised, relabelled)
    touched = changed + [old.fact_id for old, _, _, _ in pending] + [f.fact_id for f, _, _ in log.facts]
    log.facts.clear()
    # the walk already saw which facts summaries derive from: no re-check query when none does
    traced = [fid for fid in touched if fid in summarized or fid not in region and fid not in changed]
    recheck = bool(traced or changed_summaries)
    # one flag edge per dependent, in one query that also returns the statements the report names; the flagged
    # version stays the version (FlaggedFact.version_id names it)
    texts = flag_states(w, moves, kind="cascade", actor="cascade",  # type: ignore[arg-type]
                        reason="stale: lost all support", notify=False, defer=defer and not recheck,
                        paths=[path for _old, _cause, path, _depth in pending])
    stale, restored = ([], []) if not recheck else _recheck_summaries(
        tx, tenant, known, fact_ids=traced, summary_ids=changed_summaries)
    deferred = defer and not recheck and bool(pending)
    report = CascadeReport(at=known, changed=changed, checked=sorted(region),
                           facts=[] if deferred else _flagged(pending, texts), summaries=stale, restored=restored)
    if deferred:
        w.cascade_pending = pending
    if pending or stale or restored:
        # one ledger entry per cascade: what it flagged, each flagged version, depth, path and cause
        causes = {cause.premise_fact_id: cause for _, cause, _, _ in pending}
        index = {premise: i for i, premise in enumerate(causes)}
        flagged_ids = {old.fact_id for old, _, _, _ in pending} | {s.summary_id for s in stale}
        detail = {"flagged": sorted(flagged_ids), "restored": [s.summary_id for s in restored],
                  "causes": [c.model_dump(mode="json", exclude=CONTENT_FREE) for c in causes.values()],
                  "facts": [{"fact_id": old.fact_id, "version_id": old.version_id, "depth": depth, "path": list(path),
                             "cause": index[cause.premise_fact_id]} for old, cause, path, depth in pending]}
        # built content-free (CONTENT_FREE excluded from the causes, ids and depths only), its ids listed here
        ids = [*detail["flagged"], *detail["restored"],
               *(i for c in detail["causes"] for i in (c["premise_fact_id"], c["premise_version_id"]) if i),
               *(i for f in detail["facts"] for i in (f["fact_id"], f["version_id"], *f["path"]))]
        for fid in changed[:1] or changed_summaries[:1]:
            ledger.audit_listed(tx, tenant, "cascade", fid, detail, ids)
    return report


def completed(w: Write, report: CascadeReport | None) -> CascadeReport | None:
    """The report with the flags `cascade(defer=True)` left to `ledger.finish` named (their statements as the
    flag write returned them); the report unchanged when nothing was deferred."""
    pending = w.cascade_pending
    if report is None or not pending:
        return report
    w.cascade_pending = None
    return report.model_copy(update={"facts": _flagged(pending, flag_repo.deferred_statements(w.tx))})


class Cascade:
    """The cascade as every write's pre-commit step: its flags may travel with the ledger's closing rows."""

    def before_closing(self, w: Write) -> None:
        """Flag what lost its support or its trace (the fact flags deferred to the closing statement)."""
        w.report = cascade(w, defer=True)

    def after_closing(self, w: Write) -> None:
        """Name the deferred flags' statements in the report."""
        w.report = completed(w, w.report)


def _flagged(pending: Pending, texts: dict[str, str]) -> list[FlaggedFact]:
    # validated by pydantic-core, which is faster than `model_construct`'s Python loop over the fields (pydantic 2.14:
    # 82 against 154 ms for 9,200 entries); the StaleCause instance is not re-validated
    return [FlaggedFact(fact_id=old.fact_id, version_id=old.version_id, statement=texts.get(old.version_id, ""),
                        cause=cause, path=list(path), depth=depth) for old, cause, path, depth in pending]


def _revisions(tx: Tx, tenant: str, first: dict[str, tuple[Fact, str]]
               ) -> tuple[dict[str, tuple[str, str]], dict[str, str | None]]:
    """(old, new) content of each fact this write corrected to say something else: still believed, but what its
    dependents rested on is gone (a correction of valid time alone is re-checked by the support rule instead); and
    the new version's sensitivity label of each."""
    corrected = sorted(fid for fid, (_fact, how) in first.items() if how == EndKind.CORRECTION.value)
    if not corrected:
        return {}, {}
    found, labels = {}, {}
    for fid, versions in dep_repo.facts_known_at(tx, tenant, corrected).items():
        for new in versions:
            change = revision(first[fid][0], new)
            if change is not None:
                found[fid] = change
                labels[fid] = new.sensitivity
                break
    return found, labels


def _walk(tx: Tx, tenant: str, changed: list[str]) -> tuple[Region, set[str], dict[str, list[Dependent]]]:
    """Every current dependent reachable backwards from the changed facts through served dependents, the visited
    facts (changed ones included) that current summaries derive from, and the changed facts' current versions.

    Levelwise over fact ids: each query expands two levels from the frontier (every version of each fact, so a
    dependent resting on an earlier version of a walked fact is met), the walk itself runs over ids
    (`tms_rules.Frontier`, which meets versions as `reach` does), and a fact is expanded once (the visited set), so
    each version is read once."""
    summarized: set[str] = set()
    given: dict[str, list[Dependent]] = {}
    expanded: set[str] = set()
    frontier = Frontier(changed)
    starts = changed
    open_versions: dict[str, Dependent] = {}  # returned versions a later level could meet again: not projected twice
    while starts:
        level = dep_repo.dependents(tx, tenant, starts, with_given=starts is changed, met=sorted(open_versions),
                                    done=sorted({d.fact_id for d in open_versions.values()} & expanded))
        given.update(level.given)
        summarized |= level.summarized
        expanded |= level.expanded
        frontier.add(level.dependents)
        open_versions.update((d.version_id, d) for d in level.dependents)
        # a version whose premises were all expanded is met again only through a fact expanded again (`done`)
        open_versions = {vid: d for vid, d in open_versions.items()
                         if any(p not in expanded for ps in d.justifications.values() for p in ps)}
        starts = sorted(frontier.walked - expanded)
    region: Region = {}
    for fact_id, met_versions in frontier.met.items():
        alternatives: list[frozenset[str]] = []
        for version in met_versions:
            alternatives += [p for p in version.justifications.values() if p not in alternatives]
        region[fact_id] = (met_versions, alternatives)
    return region, summarized, given


def _losses(
    tx: Tx, tenant: str, known: datetime, changed: list[str], first: dict[str, tuple[Fact, str]], region: Region,
    given: dict[str, list[Dependent]], revised: dict[str, tuple[str, str]], relabelled: dict[str, str | None],
) -> tuple[list[tuple[Dependent, str, str | None]], Pending]:
    """Every served dependent that lost all support: its move to stale (with the cause text) and its cause, path
    and depth for the report."""
    if not region:
        return [], []
    justifications = {fid: alternatives for fid, (_versions, alternatives) in region.items()}
    outside = sorted({p for alts in justifications.values() for premises in alts for p in premises} - set(region))
    # the walk's first step already read the changed facts' current versions
    outside_versions: dict[str, list[Any]] = {fid: given[fid] for fid in outside if fid in given}
    outside_versions.update(dep_repo.facts_known_at(tx, tenant, [fid for fid in outside if fid not in given]))
    believed_outside = {fid for fid, versions in outside_versions.items() if believed_now(versions, known)}
    served = {fid for fid, (versions, _alts) in region.items() if believed_now(versions, known)}  # type: ignore[arg-type]
    losses = select_stale(changed=set(changed), justifications=justifications, believed_outside=believed_outside,
                          served=served, revised=set(revised))
    causes: dict[str, tuple[StaleCause, tuple[str | None, ...]]] = {}  # each root's cause and its premise's labels
    texts: dict[tuple[str, bool], str] = {}  # each cause's line, once per root (with or without its content)
    moves: list[tuple[Dependent, str, str | None]] = []
    pending: list[tuple[Dependent, StaleCause, tuple[str, ...], int]] = []
    for loss in losses:
        root = loss.path[0]
        cause, labels = causes.get(root) or causes.setdefault(root, _cause(
            loss.path, first, region, outside_versions, known, revised, relabelled))
        for old in region[loss.fact_id][0]:
            if not is_served(old.state):
                continue
            # the cause line once per root (the state change holds it); each flag names it and its own path. It
            # quotes the premise only if every reader of the dependent may see the premise (DESIGN §8: a stale
            # public rule never shows a secret premise's old and new content)
            quoted = all(can_see(least_clearance(old.sensitivity), label) for label in labels)
            line = texts.get((root, quoted)) or texts.setdefault(
                (root, quoted), (cause if quoted else cause.without_content()).text())
            moves.append((old, State.STALE.value, line))
            pending.append((old, cause, loss.path, loss.depth))
    return moves, pending


def _cause(
    path: tuple[str, ...], first: dict[str, tuple[Fact, str]], region: Region, outside: dict[str, list[Any]],
    known: datetime, revised: dict[str, tuple[str, str]], relabelled: dict[str, str | None],
) -> tuple[StaleCause, tuple[str | None, ...]]:
    """Which premise changed, how, and when: the root of the shortest path (or a premise no longer believed);
    for a content correction, its old and new content. Beside it, the sensitivity labels of the premise versions
    whose content the cause names."""
    root = path[0]
    if root in first:
        fact, how = first[root]
        old, new = revised.get(root, (None, None))
        labels = (fact.sensitivity, relabelled[root]) if root in relabelled else (fact.sensitivity,)
        return StaleCause(premise_fact_id=root, premise_version_id=fact.version_id, premise_statement=fact.statement,
                          change=how, at=known, old_content=old, new_content=new), labels
    for premises in region.get(root, ([], []))[1]:
        for premise in sorted(premises):
            versions = outside.get(premise) or []
            if premise not in region and not believed_now(versions, known):
                ref = versions[0] if versions else None
                return StaleCause(premise_fact_id=premise, premise_version_id=ref.version_id if ref else "",
                                  premise_statement=ref.statement if ref else "", change="not believed",
                                  at=known), (ref.sensitivity,) if ref else ()
    return StaleCause(premise_fact_id=root, premise_version_id="", premise_statement="", change="unsupported",
                      at=known), ()


def trace_state(tx: Tx, tenant: str, summaries: list[Summary]) -> dict[str, list[str]]:
    """For each summary id, why its trace no longer holds ([] = every input unchanged and still served)."""
    items = [t for s in summaries for t in s.trace]
    facts = dep_repo.facts_known_at(tx, tenant, sorted({t.ref_id for t in items if t.kind == "fact"}))
    sums = summary_repo.by_ids(tx, tenant, sorted({t.ref_id for t in items if t.kind == "summary"}))
    sources = summary_repo.source_texts(tx, tenant, sorted({t.ref_id for t in items if t.kind == "source"}))
    result = {}
    for summary in summaries:
        current: dict[tuple[str, str], str | None] = {}
        for t in summary.trace:
            if t.kind == "fact":
                hashes = [fact_hash(v) for v in facts.get(t.ref_id, []) if is_served(v.state)]
                current[(t.kind, t.ref_id)] = t.hash if t.hash in hashes else (hashes[0] if hashes else None)
            elif t.kind == "summary":
                other = sums.get(t.ref_id)
                current[(t.kind, t.ref_id)] = other.text_hash if other and is_served(other.state) else None
            else:
                text = sources.get(t.ref_id)
                current[(t.kind, t.ref_id)] = text_hash(text) if text is not None else None
        result[summary.summary_id] = trace_breaks(summary.trace, current)
    return result


def _recheck_summaries(
    tx: Tx, tenant: str, known: datetime, *, fact_ids: list[str], summary_ids: list[str],
) -> tuple[list[FlaggedSummary], list[FlaggedSummary]]:
    """Re-check the traces of current summaries naming what changed; flag broken ones, restore healed ones."""
    stale: dict[str, FlaggedSummary] = {}
    restored: dict[str, FlaggedSummary] = {}
    visits: dict[str, int] = {}
    queue = summary_repo.deriving(tx, tenant, fact_ids=fact_ids, summary_ids=summary_ids, source_ids=[])
    while queue:
        queue = [s for s in queue if visits.get(s.summary_id, 0) < MAX_SUMMARY_VISITS]
        if not queue:
            break
        fresh = summary_repo.by_ids(tx, tenant, [s.summary_id for s in queue])
        batch = [fresh[s.summary_id] for s in queue if s.summary_id in fresh]
        breaks = trace_state(tx, tenant, batch)
        moved: list[str] = []
        for summary in batch:
            visits[summary.summary_id] = visits.get(summary.summary_id, 0) + 1
            reasons = breaks[summary.summary_id]
            if reasons and is_served(summary.state):
                new = set_state(tx, known, summary, State.STALE.value, "; ".join(reasons))
                stale[summary.summary_id] = _flag(new, "; ".join(reasons))
                restored.pop(summary.summary_id, None)
                moved.append(summary.summary_id)
            elif reasons:
                stale.setdefault(summary.summary_id, _flag(summary, "; ".join(reasons)))
            elif summary.state == State.STALE:
                new = set_state(tx, known, summary, State.ACTIVE.value, None)
                restored[summary.summary_id] = _flag(new, "every input unchanged and served")
                stale.pop(summary.summary_id, None)
                moved.append(summary.summary_id)
        queue = summary_repo.deriving(tx, tenant, fact_ids=[], summary_ids=moved, source_ids=[]) if moved else []
    return sorted(stale.values(), key=lambda s: s.summary_id), sorted(restored.values(), key=lambda s: s.summary_id)


CONTENT_FREE = {"premise_statement", "old_content", "new_content"}  # the ledger keeps ids and reasons only


def _flag(summary: Summary, reason: str) -> FlaggedSummary:
    return FlaggedSummary(summary_id=summary.summary_id, version_id=summary.version_id, topic=summary.topic,
                          reason=reason)


def set_state(tx: Tx, known: datetime, summary: Summary, state: str, cause: str | None) -> Summary:
    """Move a summary to another state (or the same state with a new cause) by the transition table, as a flag on
    its version (same text, trace and version id); the ledger records it."""
    if state != summary.state:
        check_transition(summary.summary_id, summary.state, state)
    flag_repo.write(tx, summary.tenant, known, [FlagRow(version_id=summary.version_id, state=state,
                                                        from_state=summary.state, cause=cause)],
                    kind="summary_trace", actor="cascade", reason=cause or "trace holds again", summaries=True)
    new = summary.model_copy(update={"state": state, "stale_cause": cause})
    ledger.audit(tx, new.tenant, known, [(f"summary_{state}", summary.summary_id,
                                          {"version_id": new.version_id, "cause": cause})])
    return new


register(Cascade())  # every write runs it before commit (the core does not import this module)
