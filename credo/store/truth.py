"""Store methods for premises, justifications, derived summaries and re-verification.

Every write that stops believing a version (correct, succeed, end, retract, conflict resolution, reverify, ...)
runs the cascade in its own transaction; the Fact (or Summary) it returns carries the report in `.cascade`
(None when the write stopped believing nothing). See DESIGN.md §5.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from credo.schema import commands as c
from credo.schema.commands import build
from credo.schema.cascade import Justification, StaleItem, Summary
from credo.schema.commands_diff import DiffQuery
from credo.schema.commands_transition import TransitionQuery
from credo.schema.diff import BeliefDiff
from credo.schema.transition import TransitionReport
from credo.schema.facts import Fact
from credo.schema.pages import After
from credo.schema.utility import MaintainReport
from credo.services.truth import premises as justify_service
from credo.services.recall import maintain as maintain_service
from credo.services.truth import diff as diff_service
from credo.services.truth import reverify as reverify_service
from credo.services.truth import summaries as summary_service
from credo.services.truth import transition as transition_service
from credo.services.core.context import Context
from credo.services.adapters.summarizers import Summarizer


class CascadeMixin:
    """Truth-maintenance half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def justify(self, fact_id: str, *, premises: Sequence[str], valid_from: Any = None, valid_to: Any = None) -> str:
        """Add a justification of a fact (its premises ANDed; several justifications ORed); returns its id."""
        cmd = build(c.Justify, fact_id=fact_id, premises=premises, valid_from=valid_from, valid_to=valid_to)
        return justify_service.justify(self._ctx, cmd)

    def justifications(self, fact_id: str, *, known_at: Any = None) -> list[Justification]:
        """A fact's justifications believed at known_at (default now), each saying whether it holds."""
        cmd = build(c.JustificationsQuery, fact_id=fact_id, known_at=known_at)
        return justify_service.justifications(self._ctx, cmd)

    def add_summary(self, text: str, *, derived_from: Sequence[str], summarizer: Summarizer | None = None,
                    topic: str | None = None) -> Summary:
        """Record a derived text with its verifying trace; with a summarizer, `text` is the topic it writes about."""
        cmd = build(c.AddSummary, text=text, derived_from=derived_from, topic=topic)
        return summary_service.add_summary(self._ctx, cmd, summarizer=summarizer)

    def rebuild(self, summary_id: str, *, summarizer: Summarizer) -> Summary:
        """Re-check a summary's trace (green again if unchanged) or re-run the summarizer on what is served now."""
        cmd = build(c.Rebuild, summary_id=summary_id)
        return summary_service.rebuild(self._ctx, cmd, summarizer=summarizer)

    def summaries(self, *, known_at: Any = None, states: Any = None, page: After | None = None) -> list[Summary]:
        """Summaries believed at known_at: only served (green) ones unless `states` says otherwise; `page` reads one
        page of them in its query (REST's pages)."""
        cmd = build(c.SummariesQuery, known_at=known_at, states=states)
        return summary_service.summaries(self._ctx, cmd, page=page)

    def summary(self, summary_id: str, *, known_at: Any = None) -> Summary:
        """One summary as believed at known_at (default now), in whatever state."""
        cmd = build(c.SummaryQuery, summary_id=summary_id, known_at=known_at)
        return summary_service.summary(self._ctx, cmd)

    def reverify(self, fact_id: str, *, outcome: str = "holds", evidence: Any = None, note: str | None = None) -> Fact:
        """Close a re-verification: holds, lapsed (history: no longer applies because ...) or retracted."""
        cmd = build(c.Reverify, fact_id=fact_id, outcome=outcome, evidence=evidence, note=note)
        return reverify_service.reverify(self._ctx, cmd)

    def stale(self, *, page: After | None = None) -> list[StaleItem]:
        """Everything awaiting re-verification or a rebuild, oldest first; `page` reads one page of it in its query
        (REST's pages: `.next_after` says which item the next follows)."""
        return reverify_service.stale(self._ctx, build(c.StaleQuery), page=page)

    def diff(self, known_a: Any, known_b: Any, *, scope: dict[str, str] | None = None,
             subject: str | None = None) -> BeliefDiff:
        """What the store believed differently between known times known_a (excluded) and known_b (included):
        each change (added, corrected, superseded, ended, retracted, stale with its cause, forgotten as a tombstone,
        ...) in known-time order, within the caller's clearance."""
        cmd = build(DiffQuery, known_a=known_a, known_b=known_b, scope=scope, subject=subject)
        return diff_service.diff(self._ctx, cmd)

    def check_transition(self, known_before: Any, known_after: Any, *, scope: dict[str, str] | None = None,
                         strict: bool = False) -> TransitionReport:
        """Judge the writes made in (known_before, known_after]: coverage (what each asked did change), preservation
        (nothing outside their reach changed) and faithfulness (what was added is grounded), with the findings of
        each and what the caller's clearance withheld; `strict`: an ungrounded write fails faithfulness."""
        cmd = build(TransitionQuery, known_before=known_before, known_after=known_after, scope=scope, strict=strict)
        return transition_service.check_transition(self._ctx, cmd)

    def maintain(self, *, episodic_ttl_days: int | None = None) -> MaintainReport:
        """The scheduled sweep (idempotent): flag stale what rests on ended premises, move memories between tiers
        (`.tier_moves`), list episodic memories past the TTL (`.ttl_due`); `episodic_ttl_days` sets the TTL first."""
        cmd = build(c.Maintain, episodic_ttl_days=episodic_ttl_days)
        return maintain_service.maintain(self._ctx, cmd)


HANDLERS: dict[str, Callable[..., Any]] = {
    "justify": justify_service.justify, "justifications": justify_service.justifications,
    "add_summary": summary_service.add_summary, "rebuild": summary_service.rebuild,
    "summaries": summary_service.summaries, "summary": summary_service.summary, "reverify": reverify_service.reverify,
    "stale": reverify_service.stale, "maintain": maintain_service.maintain, "diff": diff_service.diff,
    "check_transition": transition_service.check_transition,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
