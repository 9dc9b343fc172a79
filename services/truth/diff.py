"""The belief diff (DESIGN.md §11): what the store believed differently between two known times, for the caller's
tenant and within its clearance.

It lives with truth maintenance because it reads what the cascade and forgetting leave on versions (stale flags with
their causes, tombstones) beside the facts' own versions and SUPERSEDES edges; the classification is the pure rule of
`diff_rules.py`."""

from __future__ import annotations

from credo.graph.core.db import Tx
from credo.graph.truth import diff as diff_repo
from credo.schema.commands_diff import DiffQuery
from credo.schema.diff import BeliefDiff
from credo.schema.errors import InvalidInput
from credo.schema.facts import scope_key
from credo.schema.names import check_scope, clean_name
from credo.services.core.context import Context
from credo.services.facts.read import entity_ids
from credo.services.truth.diff_rules import belief_changes

MAX_CHANGES = 20_000
"""The most versions, flags or disputes one diff reads (each read stops one past it); a busier window is refused
(narrow it), so no window, however wide, is read whole into memory."""


def diff(ctx: Context, cmd: DiffQuery) -> BeliefDiff:
    """Every change of belief whose known time falls in (known_a, known_b], oldest first: facts added, corrected,
    superseded, ended, retracted, merged, state changes, conflicts opened and resolved, what went stale (with its
    cause) and what was forgotten (a tombstone: the id and when, never the content). `subject` narrows it to the
    facts about one entity (its merged names too), `scope` to one scope."""
    known_a, known_b = cmd.known_a.at, ctx.known_point(cmd.known_b.at)  # the later point settled settles both
    if known_a >= known_b:
        raise InvalidInput("known_b", f"must be after known_a ({cmd.known_a}): a diff runs from the earlier known "
                                      "time to the later")
    subject = None if cmd.subject is None else clean_name(cmd.subject, "subject")
    scope = None if cmd.scope is None else check_scope(cmd.scope)
    key = None if scope is None else scope_key(scope)

    def work(tx: Tx) -> BeliefDiff:
        ids = entity_ids(tx, ctx.tenant, subject)  # the entity as its names resolve now (None: every subject)
        window = {"subject_ids": ids, "scope_key": key, "limit": MAX_CHANGES + 1}
        read = [diff_repo.versions(tx, ctx.tenant, known_a, known_b, **window),
                diff_repo.flags(tx, ctx.tenant, known_a, known_b, **window),
                diff_repo.disputes(tx, ctx.tenant, known_a, known_b, **window)]
        if any(len(rows) > MAX_CHANGES for rows in read):
            raise InvalidInput("known_b", f"the window holds more than {MAX_CHANGES} changes: diff a shorter one (or "
                                          "one subject or scope)")
        changes = belief_changes(*read, known_a=known_a, known_b=known_b)
        return BeliefDiff(known_a=known_a, known_b=known_b, changes=changes)

    return ctx.read(work)
