"""Human-readable and JSON renderings shared by the command line."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from credo.schema.diff import BeliefChange, BeliefVersion, ChangeKind
from credo.schema.facts import Fact


def to_json(value: Any) -> str:
    """JSON text for models, lists of models and plain data."""

    def plain(v: Any) -> Any:
        if isinstance(v, BaseModel):
            return v.model_dump(mode="json")
        if isinstance(v, list | tuple):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        return v

    return json.dumps(plain(value), indent=2, ensure_ascii=False, default=str)


def printed(value: Any, as_json: bool, lines: Callable[[Any], Iterable[str]], *, empty: str | None = None) -> int:
    """Print `value` as JSON, or as text: `lines(item)` for it, or for each item of a list (`empty` when the list is
    empty); the command's exit code, 0."""
    if as_json:
        print(to_json(value))
        return 0
    items = value if isinstance(value, list) else [value]
    if not items and empty is not None:
        print(empty)
    for item in items:
        for line in lines(item):
            print(line)
    return 0


def fact_line(fact: Fact) -> str:
    """One line per version: claim, valid interval, known interval, state and flags."""
    flags = [fact.state]
    if fact.disputed:
        flags.append("disputed")
    if fact.epistemic == "hypothesis":
        flags.append("hypothesis")
    if fact.operational:
        flags.append("operational: awaits direct evidence" if fact.evidence_hold else "operational")
    if fact.undated:
        flags.append("undated")
    if fact.ended_by:
        flags.append(f"ended by {fact.ended_by}" + (f": {fact.end_reason}" if fact.end_reason else ""))
    if fact.lapse_reason:
        flags.append(fact.lapse_reason)
    if fact.bounded_by:
        flags.append(f"bounded at the start of {fact.bounded_by}")
    scope = f" {fact.scope}" if fact.scope else ""
    return (
        f"{fact.subject} —{fact.predicate}→ {fact.object_name}{scope}  valid {fact.valid_text()}  "
        f"known {fact.known_text()}  [{', '.join(flags)}]  {fact.fact_id}/{fact.version_id}"
    )


def facts_block(facts: list[Fact], empty: str = "(nothing)") -> str:
    """Several facts, one per line."""
    return "\n".join(fact_line(f) for f in facts) if facts else empty


UNDATED_HEADING = "undated — may hold at this point, since unknown:"


def dated_apart(lines: list[tuple[bool, str]], empty: str) -> str:
    """(undated, line) pairs of an as-of read: the dated lines, then the undated ones under their own heading."""
    dated = [line for undated, line in lines if not undated]
    undated = [line for is_undated, line in lines if is_undated]
    if not undated:
        return "\n".join(dated) or empty
    return "\n".join((dated or ["(nothing dated)"]) + ["", UNDATED_HEADING] + [f"  {line}" for line in undated])


def as_of_block(facts: list[Fact], empty: str = "(nothing)") -> str:
    """An as-of read's facts: the dated answer, then the undated ones under their own heading."""
    return dated_apart([(f.undated, fact_line(f)) for f in facts], empty)


def _said(version: BeliefVersion | None) -> str:
    """What a version of a change said, quoted, or its id when nothing may be named (a forgotten fact)."""
    if version is None:
        return "(withheld)"
    return repr(version.statement) if version.statement is not None else version.version_id


def change_text(change: BeliefChange) -> str:
    """What one change of a belief diff did, in words (its kind and fact id are shown beside it)."""
    after = change.after[0] if change.after else None
    kind = change.kind
    if kind is ChangeKind.FORGOTTEN:
        return "forgotten (a tombstone: its content is gone)"
    if kind is ChangeKind.ADDED or kind is ChangeKind.STALE:
        return _said(after) + (f"; cause: {change.cause}" if change.cause else "")
    if kind is ChangeKind.CONFLICT_OPENED:
        return f"{_said(after)} disputes {', '.join(_said(v) for v in change.against)} ({change.conflict_id})"
    if kind in (ChangeKind.ENDED, ChangeKind.SUPERSEDED) and after is not None and after.valid_to is not None:
        text = f"{_said(change.before)} ended at {after.valid_to.isoformat()}"  # its reason says the same
    else:
        text = f"{_said(change.before)} → {', '.join(_said(v) for v in change.after) or 'no longer believed'}"
        text += f"; reason: {change.reason}" if change.reason else ""
    if change.successor is not None:
        text += f"; successor {_said(change.successor)} ({change.successor.fact_id})"
    if kind is ChangeKind.STATE_CHANGED and after is not None and after.state:
        text += f" [{after.state}]"
    return text
