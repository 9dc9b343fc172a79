"""Pure rules of the context package: which part a version belongs in (and what to say about it), and the
rendering for an LLM prompt within a token budget. No driver; tested by tables.

Tokens are counted by a documented approximation: one token per 4 characters, rounded up (`tokens`), which is
close to what BPE tokenizers give for English prose and errs long for short words. The rendering puts current
first, then historical, then open; when an item does not fit, it and every later item are left out, and one line
says how many of each part were left out: truncation is never silent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from credo.schema.context_package import ContextItem, ContextPackage
from credo.schema.facts import Epistemic, Fact
from credo.schema.lifecycle import State, is_served
from credo.schema.time import render as render_time
from credo.services.facts.evidence_rules import WEAK_TEXT

CHARS_PER_TOKEN = 4
EXCLUDED = frozenset({State.REJECTED, State.FORGOTTEN, State.DELETED})
CLOSED_KINDS = ("correction", "retraction")  # no longer believed, but the package says we were wrong, and why


@dataclass(frozen=True)
class Link:
    """A version superseding another: its kind, when, and what it says."""

    kind: str
    at: datetime | None
    statement: str


@dataclass(frozen=True)
class Placement:
    """Where a version goes in the package and what is said about it there."""

    part: str
    end_kind: str | None = None
    ended_at: datetime | None = None
    superseded_by: str | None = None
    reason: str | None = None
    open_kind: str | None = None
    cause: str | None = None
    unknown: str | None = None


# what a reader is told of a conflicted version whose established side is above its clearance: that it waits, not
# what it contradicts (the one bit the conflict rule gives away: a write learns it was kept conflicted)
CONFLICTED_UNSEEN = "conflicted (awaiting a decision by a key cleared for it)"


def tokens(text: str) -> int:
    """The approximate token count of a text: one token per 4 characters, rounded up."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def place(fact: Fact, *, valid_at: datetime, supported: bool = True, successor: Link | None = None,
          predecessor_end: tuple[str | None, str | None] | None = None, dispute_seen: bool = True) -> Placement | None:
    """The part of a version read for the point `valid_at` (None: it does not belong in the package).

    `supported`: premises valid at the point support it; `successor`: the version superseding it (another fact);
    `predecessor_end`: (ended_by, end_reason) of the earlier version it was cut from; `dispute_seen`: the reader may
    see what a conflicted version contradicts (else it is told no more than that a cleared key must decide)."""
    state = State(fact.state)
    if state in EXCLUDED:
        return None
    if fact.known_to is not None:  # no longer believed: we were wrong (a correction) or never right (a retraction)
        if fact.ended_by is None or fact.ended_by.value not in CLOSED_KINDS:
            return None
        reason = fact.end_reason or (f"corrected: now {successor.statement!r}" if successor else None)
        return Placement("historical", end_kind=fact.ended_by.value, ended_at=fact.known_to,
                         superseded_by=successor.statement if successor else None, reason=reason)
    if state == State.CONFLICTED and not dispute_seen:
        return Placement("open", open_kind="conflict", cause=CONFLICTED_UNSEEN,
                         unknown="whether it applies: a decision is awaited")
    if state == State.CONFLICTED:
        return Placement("open", open_kind="conflict", cause="it contradicts the established value, so it was kept, "
                         "not applied", unknown="which value holds: a decision is awaited (resolve_conflict)")
    if state == State.CANDIDATE and fact.awaiting == "consent":
        return Placement("open", open_kind="awaiting_consent", cause="a surfaced write: the person was shown "
                         "'I will remember that: …'", unknown="whether the person agrees: it is served only after "
                         "they consent (consent accept or delete)")
    if state == State.CANDIDATE:
        return Placement("open", open_kind="candidate", cause="extracted, not admitted",
                         unknown="whether it is true: nobody has confirmed it yet")
    if state == State.QUARANTINED:
        return Placement("open", open_kind="quarantined", cause="its origin is not trusted",
                         unknown="whether its source can be believed")
    if state == State.STALE:
        return Placement("open", open_kind="stale", cause=fact.stale_cause or "a premise changed",
                         unknown="whether it still holds: it awaits re-verification")
    ended = fact.valid_to is not None and fact.valid_to <= valid_at
    if state == State.DEPRECATED:
        return Placement("historical", end_kind="lapsed" if fact.lapse_reason else "deprecated",
                         ended_at=fact.valid_to, reason=fact.lapse_reason or "deprecated: no longer served")
    if not is_served(state.value):
        return None
    if ended:
        return _ended(fact, successor, predecessor_end)
    if fact.valid_from is None:
        return Placement("open", open_kind="undated", cause="its start was never stated",
                         unknown="since when it holds: it may hold at the point, nobody knows since when")
    if fact.valid_from > valid_at:
        return None  # not yet valid at the point
    if fact.epistemic == Epistemic.HYPOTHESIS and fact.evidence_hold:
        return Placement("open", open_kind="hypothesis", cause="an operational rule with no direct evidence yet "
                         "(a conversation or a reflection alone cannot confirm it)",
                         unknown="whether it holds: it awaits a tool_result, code, test or log source")
    if fact.epistemic == Epistemic.HYPOTHESIS:
        return Placement("open", open_kind="hypothesis", cause="the source hedged",
                         unknown="whether it is true: it is a hypothesis, never confirmed")
    if not supported:
        return Placement("open", open_kind="unsupported", cause="no premise valid at the point supports it",
                         unknown="whether it holds without its premises")
    return Placement("current")


def _ended(fact: Fact, successor: Link | None, predecessor_end: tuple[str | None, str | None] | None) -> Placement:
    """A served version whose valid time ended by the point: how it ended and why."""
    at = fact.valid_to
    if successor is not None:
        when = render_time(successor.at) if successor.at else render_time(at, fact.valid_to_precision)
        return Placement("historical", end_kind=successor.kind, ended_at=at, superseded_by=successor.statement,
                         reason=f"{successor.kind} at {when}: now {successor.statement!r}")
    if fact.bounded_by:
        return Placement("historical", end_kind="bounded", ended_at=at,
                         reason=f"bounded where an established value starts ({fact.bounded_by})")
    how, why = predecessor_end or (None, None)
    kind = how if how in ("end", "range_write", "succession") else "end"
    return Placement("historical", end_kind=kind, ended_at=at,
                     reason=why or f"valid time ended at {render_time(at, fact.valid_to_precision)}")


# -- rendering -------------------------------------------------------------------------------------
def item_line(item: ContextItem) -> str:
    """One markdown line for an item: statement, then what its part needs said, then evidence and sources."""
    f = item.fact
    bits = [f"evidence {item.evidence}"]
    if item.epistemic == Epistemic.HYPOTHESIS:
        bits.append("hypothesis")
    bits.append(f"valid {f.valid_text()}")
    bits.append(f"verified {render_time(item.verified_at)}" if item.verified_at else "never re-verified")
    if item.verified_by is not None:  # a verifier's judgement, said as one ("not verified" is the default, unsaid)
        bits.append(f"verifier: {item.verification}")
    if item.disputed:
        bits.append("disputed")
    if item.weak:
        bits.append(WEAK_TEXT)
    if item.missing_evidence:
        bits.append(f"missing {item.missing_evidence}")
    head = f"- {item.statement}"
    if item.part == "historical":
        when = f" ({render_time(item.ended_at)})" if item.ended_at else ""
        head += f" — {item.end_kind}{when}: {item.reason}"
    elif item.part == "open":
        head += f" — {item.open_kind}: {item.cause}; unknown: {item.unknown}"
    sources = "; ".join(_source_text(s) for s in item.sources[:2])
    more = f" (+{len(item.sources) - 2} more)" if len(item.sources) > 2 else ""
    return f"{head} [{', '.join(bits)}{'; ' + sources + more if sources else ''}]"


def _source_text(s) -> str:
    where = f"session {s.session_id} #{s.index}" if s.session_id is not None else f"{s.kind} {s.source_id}"
    return f'"{s.quote}" ({where})' if s.quote else where


HEADINGS = (("current", "Current"), ("historical", "Historical (no longer applies)"), ("open", "Open (unknown)"))


def render(package: ContextPackage, budget_tokens: int | None = None) -> tuple[str, int, bool, dict[str, int]]:
    """(markdown, tokens, truncated, omitted per part): current first, within `budget_tokens` when given; when the
    whole does not fit, the items are left out from the first that does not fit on, and a last line says how many."""
    point = f"valid at {render_time(package.valid_at)}, " + (
        f"as known at {render_time(package.known_at)}" if package.known_at else "as believed now")
    head = [f"# Context: {package.query}", f"_{point}_"]
    parts: dict[str, Sequence[ContextItem]] = {"current": package.current, "historical": package.historical,
                                               "open": package.open}
    sections = [(name, [f"\n## {heading}"] + ([item_line(i) for i in parts[name]] or ["- (none)"]))
                for name, heading in HEADINGS]
    whole = "\n".join(head + [line for _, section in sections for line in section])
    if budget_tokens is None or tokens(whole) <= budget_tokens:
        return whole, tokens(whole), False, {}
    lines, omitted, full = list(head), {}, False
    for name, section in sections:
        items = parts[name]
        for index, line in enumerate(section):
            if not full and tokens("\n".join(lines + [line])) + _RESERVE <= budget_tokens:
                lines.append(line)
                continue
            full = True
            if items:  # index 0 is the heading: every item of the part is left out
                omitted[name] = len(items) - max(index - 1, 0)
            break
    left = ", ".join(f"{n} {name}" for name, n in omitted.items()) or "no"
    lines.append(f"\n[truncated to fit {budget_tokens} tokens: {left} item(s) left out; ask with a larger budget "
                 f"or read the JSON]")
    text = "\n".join(lines)
    return text, tokens(text), True, omitted


_RESERVE = tokens("\n[truncated to fit 1000000 tokens: 9999 current, 9999 historical, 9999 open item(s) left out; "
                  "ask with a larger budget or read the JSON]")

