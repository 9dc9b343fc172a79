"""The transition check (DESIGN.md §11): the writes made between two known times judged as changes, not only by
their result: coverage (what each asked to change did change), preservation (nothing outside their reach changed)
and faithfulness (what was added is grounded in a source), from the store's own history.

It reads, in one read transaction and inside the caller's clearance, the ledger events of the window
(graph/truth/transition.py), the belief diff of the same window (graph/truth/diff.py with the rule of
`diff_rules.py`) and the grounding of the versions they name; the judgement is the pure rule of
`transition_rules.py`. A hidden write or version is counted as withheld, never named."""

from __future__ import annotations

from credo.graph.core.db import Tx
from credo.graph.truth import diff as diff_repo
from credo.graph.truth import transition as transition_repo
from credo.schema.commands_transition import TransitionQuery
from credo.schema.errors import InvalidInput
from credo.schema.facts import scope_key
from credo.schema.names import check_scope
from credo.schema.transition import TransitionReport
from credo.services.core.context import Context
from credo.services.truth.diff_rules import belief_changes
from credo.services.truth.transition_rules import asked, brought, judge

MAX_EVENTS = 20_000
"""The most ledger events one check judges; a busier window is refused (narrow it)."""


def check_transition(ctx: Context, cmd: TransitionQuery) -> TransitionReport:
    """Judge the writes whose known time falls in (known_before, known_after]: coverage, preservation and
    faithfulness, each with its findings (the write's ledger event, the fact and version, why). `scope` narrows it
    to one scope; `strict` makes an ungrounded write fail faithfulness (it is always listed)."""
    before, after = cmd.known_before.at, ctx.known_point(cmd.known_after.at)  # settles both
    if before >= after:
        raise InvalidInput("known_after", f"must be after known_before ({cmd.known_before}): a transition runs from "
                                          "the earlier known time to the later")
    key = None if cmd.scope is None else scope_key(check_scope(cmd.scope))

    def work(tx: Tx) -> TransitionReport:
        events, hidden_at = transition_repo.events(tx, ctx.tenant, before, after, scope_key=key,
                                                   limit=MAX_EVENTS + 1)
        if len(events) + len(hidden_at) > MAX_EVENTS:
            raise InvalidInput("known_after", f"the window holds more than {MAX_EVENTS} writes: check a shorter one")
        window = {"subject_ids": None, "scope_key": key}
        changes = belief_changes(diff_repo.versions(tx, ctx.tenant, before, after, **window),
                                 diff_repo.flags(tx, ctx.tenant, before, after, **window),
                                 diff_repo.disputes(tx, ctx.tenant, before, after, **window),
                                 known_a=before, known_b=after)
        named = [a.id for e in events for a in asked(e) if a.what == "shown"]
        named += [v.version_id for _, v in brought(changes)]
        found = transition_repo.groundings(tx, ctx.tenant, named, after)
        return judge(events, changes, grounding={v: g for v, (_, _, g) in found.items()},
                     known_from={v: at for v, (_, at, _) in found.items()}, hidden_at=hidden_at,
                     hidden_versions=transition_repo.hidden(tx, ctx.tenant, before, after, scope_key=key),
                     known_before=before, known_after=after, strict=cmd.strict)

    return ctx.read(work)
