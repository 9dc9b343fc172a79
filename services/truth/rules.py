"""Pure truth-maintenance rules: well-founded JTMS support, cascade selection with shortest paths, trace checks."""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

from credo.schema.cascade import TraceItem
from credo.schema.facts import Fact
from credo.schema.lifecycle import is_served

Justifications = Mapping[str, Sequence[frozenset[str]]]


def supported(
    justifications: Justifications, *, believed_outside: set[str], served: set[str], revised: Set[str] = frozenset(),
) -> set[str]:
    """Least fixpoint of the JTMS rule: a served node is supported when one justification has every premise
    believed (outside the region, or itself supported). Cycles with no outside support stay unsupported.
    A `revised` premise (its content changed) supports nothing that rested on its old content."""
    # one counter of missing premises per justification, indexed by position (no set or tuple key per justification:
    # a 10,000-dependent cascade runs this over every dependent); each supported premise is popped once, and a
    # justification's premises are distinct, so a counter reaching 0 means every premise is supported
    missing_count: list[int] = []
    owner: list[str] = []
    users: dict[str, list[int]] = {}
    result: set[str] = set()
    queue: list[str] = []
    for node, alternatives in justifications.items():
        if node not in served:
            continue
        for premises in alternatives:
            missing = [p for p in premises if p not in believed_outside or p in revised]
            if not missing:
                if node not in result:
                    result.add(node)
                    if node not in revised:
                        queue.append(node)
                continue
            index = len(owner)
            owner.append(node)
            missing_count.append(len(missing))
            for premise in missing:
                users.setdefault(premise, []).append(index)
    while queue:
        for index in users.get(queue.pop(), ()):
            missing_count[index] -= 1
            if not missing_count[index]:
                node = owner[index]
                if node not in result:
                    result.add(node)
                    if node not in revised:
                        queue.append(node)
    return result


def reach(changed: Iterable[str], versions: Iterable[Any]) -> tuple[dict[str, list[Any]], set[str]]:
    """The cascade's walk over ids, breadth-first from the changed facts: every version (with `fact_id`,
    `version_id`, `state`, `justifications`) one of whose justifications names a fact walked through, each once, by
    fact id in the order met; and the facts walked through: the changed ones, and each fact met with a served
    version. Non-served versions are met but not walked through; a walked fact is never walked again (cycles end)."""
    users: dict[str, list[Any]] = {}
    for version in versions:
        for premise in {p for premises in version.justifications.values() for p in premises}:
            users.setdefault(premise, []).append(version)
    met: dict[str, list[Any]] = {}
    seen: set[str] = set()
    walked = set(changed)
    frontier = sorted(walked)
    while frontier:
        following: list[str] = []
        for premise in frontier:
            for version in users.get(premise, ()):
                if version.version_id in seen:
                    continue
                seen.add(version.version_id)
                met.setdefault(version.fact_id, []).append(version)
                if is_served(version.state) and version.fact_id not in walked:
                    walked.add(version.fact_id)
                    following.append(version.fact_id)
        frontier = following
    return met, walked


class Frontier:
    """`reach`'s walked set and met versions kept up to date as a levelwise walk's versions arrive in batches (each
    version indexed once), so neither the next frontier nor the final region is recomputed from every version."""

    def __init__(self, changed: Iterable[str]) -> None:
        self.walked: set[str] = set(changed)
        self.met: dict[str, list[Any]] = {}  # as `reach` returns it: versions resting on a walked fact, by fact id
        self._users: dict[str, list[Any]] = {}
        self._seen: set[str] = set()
        self._met: set[str] = set()

    def add(self, versions: Iterable[Any]) -> set[str]:
        """Index the new versions; return the facts walked through because of them (met with a served version)."""
        queue: list[str] = []
        for version in versions:
            if version.version_id in self._seen:
                continue
            self._seen.add(version.version_id)
            premises = {p for group in version.justifications.values() for p in group}
            for premise in premises:
                self._users.setdefault(premise, []).append(version)
            if premises & self.walked:
                queue += self._meet(version)
        fresh = set(queue)
        while queue:
            for version in self._users.get(queue.pop(), ()):
                found = self._meet(version)
                fresh.update(found)
                queue += found
        return fresh

    def _meet(self, version: Any) -> list[str]:
        if version.version_id not in self._met:
            self._met.add(version.version_id)
            self.met.setdefault(version.fact_id, []).append(version)
        if is_served(version.state) and version.fact_id not in self.walked:
            self.walked.add(version.fact_id)
            return [version.fact_id]
        return []


@dataclass(frozen=True)
class Loss:
    """A dependent that lost all support: the shortest path from a changed fact to it, and its depth."""

    fact_id: str
    path: tuple[str, ...]

    @property
    def depth(self) -> int:
        """Edges between the changed fact and this one."""
        return len(self.path) - 1


def _premise_index(justifications: Justifications) -> dict[str, list[str]]:
    """premise -> its dependents (sorted), the edges the shortest-path searches walk."""
    dependents: dict[str, list[str]] = {}
    for node, alternatives in justifications.items():
        for premise in {p for premises in alternatives for p in premises}:
            dependents.setdefault(premise, []).append(node)
    for nodes in dependents.values():
        nodes.sort()
    return dependents


def _shortest_paths(starts: Iterable[str], justifications: Justifications, allowed: set[str],
                    dependents: Mapping[str, list[str]] | None = None) -> dict[str, tuple[str, ...]]:
    """BFS from the starts along premise -> dependent edges, visiting only `allowed` nodes."""
    if dependents is None:
        dependents = _premise_index(justifications)
    paths: dict[str, tuple[str, ...]] = {}
    queue: deque[str] = deque()
    for start in sorted(set(starts)):
        paths[start] = (start,)
        queue.append(start)
    while queue:
        here = queue.popleft()
        for node in dependents.get(here, ()):
            if node in allowed and node not in paths:
                paths[node] = paths[here] + (node,)
                queue.append(node)
    return paths


def select_stale(
    *, changed: set[str], justifications: Justifications, believed_outside: set[str], served: set[str],
    revised: Set[str] = frozenset(),
) -> list[Loss]:
    """Served dependents that lost all support, each once, with its shortest path from a changed fact."""
    lost = served - supported(justifications, believed_outside=believed_outside, served=served, revised=revised)
    index = _premise_index(justifications)
    through_lost = _shortest_paths(changed, justifications, lost, index)
    anywhere: dict[str, tuple[str, ...]] | None = None  # searched only when a path through lost nodes is missing
    found = []
    for node in lost:
        path = through_lost.get(node)
        if path is None or node in changed and len(path) == 1:
            if anywhere is None:
                anywhere = _shortest_paths(changed, justifications, set(justifications), index)
            path = anywhere.get(node) or path or (node,)
        found.append(Loss(node, path))
    return sorted(found, key=lambda loss: (loss.depth, loss.fact_id))


def believed_now(versions: Sequence[Fact], now: object) -> bool:
    """A premise is believed now when one current version is served and valid at `now` (unknown start counts)."""
    for f in versions:
        if f.known_to is not None or not is_served(f.state):
            continue
        if (f.valid_from is None or f.valid_from <= now) and (f.valid_to is None or now < f.valid_to):
            return True
    return False


def _content(fact: Fact) -> tuple[object, ...]:
    return (fact.statement, fact.subject_id, fact.predicate, fact.object.key, sorted(fact.scope.items()))


def revision(old: Fact, new: Fact) -> tuple[str, str] | None:
    """(old, new) as a reader sees them when a new version changes what the claim says (statement, subject,
    predicate, object or scope; not its valid time, state or confidence); None when the content is the same."""
    if _content(old) == _content(new):
        return None
    if old.statement != new.statement:
        return old.statement, new.statement
    if old.object.key != new.object.key:
        return old.object_name, new.object_name
    if old.scope != new.scope:
        return str(dict(sorted(old.scope.items()))), str(dict(sorted(new.scope.items())))
    return f"{old.subject} {old.predicate}", f"{new.subject} {new.predicate}"


def supported_at(views: Mapping[str, Sequence[Any]], valid_at: object) -> set[str]:
    """Fact ids supported at valid time `valid_at` (DESIGN §5): a fact needs a version believed and valid then,
    resting on nothing, or with one justification whose premises are all supported then (well-founded, so cycles
    give none). `views` maps every fact id reachable through such versions to its versions (`justifications`
    maps justification id to premise fact ids); a premise missing from it supports nothing."""
    base: set[str] = set()
    justifications: dict[str, list[frozenset[str]]] = {}
    for fact_id, versions in views.items():
        for version in versions:
            if not believed_now([version], valid_at):
                continue
            if not version.justifications:
                base.add(fact_id)
            justifications.setdefault(fact_id, []).extend(version.justifications.values())
    region = {fid: alts for fid, alts in justifications.items() if fid not in base and alts}
    return base | supported(region, believed_outside=base, served=set(region))


def fact_hash(fact: Fact) -> str:
    """Content hash of a fact version: what it claims, where and when (not its lifecycle state)."""
    content = {
        "statement": fact.statement, "subject": fact.subject_id, "predicate": fact.predicate,
        "object": list(fact.object.key), "scope": dict(sorted(fact.scope.items())),
        "valid_from": fact.valid_from.isoformat() if fact.valid_from else None,
        "valid_to": fact.valid_to.isoformat() if fact.valid_to else None, "epistemic": fact.epistemic.value,
    }
    return text_hash(json.dumps(content, sort_keys=True, ensure_ascii=False))


def text_hash(text: str) -> str:
    """SHA-256 of a text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def trace_breaks(trace: Sequence[TraceItem], current: Mapping[tuple[str, str], str | None]) -> list[str]:
    """Why a trace no longer holds: one line per input that changed or stopped being served ([] = it holds).

    `current` maps (kind, ref_id) to the hash of the input's served current version, or None when none is served.
    """
    reasons = []
    for item in trace:
        now_hash = current.get((item.kind, item.ref_id))
        if now_hash is None:
            reasons.append(f"{item.kind} {item.ref_id} is no longer served as current")
        elif now_hash != item.hash:
            reasons.append(f"{item.kind} {item.ref_id} changed (was version {item.version_id})")
    return reasons
