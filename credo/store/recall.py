"""Store methods for recall: the context package and read receipts (DESIGN.md §8)."""

from __future__ import annotations

from collections.abc import Callable

from typing import Any

from credo.schema import commands_recall as r
from credo.schema.commands import build
from credo.schema.context_package import ContextPackage
from credo.schema.pages import After
from credo.schema.receipts import ReadReceipt
from credo.services.recall import context as package_service
from credo.services.recall import receipts as receipt_service
from credo.services.core.context import Context


class RecallMixin:
    """Recall half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def context(
        self, query: str | None = None, *, valid_at: Any = None, known_at: Any = None,
        scope: dict[str, str] | None = None, budget_tokens: int | None = None, task: str | None = None,
        **renamed: Any,
    ) -> ContextPackage:
        """A context package for `query` (a question or an entity's name): current (served, valid, believed,
        supported), historical (each with when and why it stopped applying), open (each saying what is unknown);
        `.markdown` fits `budget_tokens`; `task` records a read receipt of the served versions. (`renamed` takes
        the argument's old name, `question_or_entity`, only to refuse it with a hint.)"""
        cmd = build(r.ContextQuery, query=query, valid_at=valid_at, known_at=known_at, scope=scope,
                    budget_tokens=budget_tokens, task=task, **renamed)
        return package_service.context(self._ctx, cmd)

    def served_to(self, task: str, *, page: After | None = None) -> list[ReadReceipt]:
        """What a task was served (what the agent knew when it acted): its read receipts, oldest first; `page` reads
        one page of them in its query (REST's pages)."""
        return receipt_service.served_to(self._ctx, build(r.ServedToQuery, task=task), page=page)

    def tasks_served(self, fact_id: str, *, page: After | None = None) -> list[ReadReceipt]:
        """Which tasks were served a fact (any version) or one version (a version id): the receipts, each with only
        those versions; `page` reads one page of them in its query (REST's pages)."""
        return receipt_service.tasks_served(self._ctx, build(r.TasksServedQuery, fact_id=fact_id), page=page)


HANDLERS: dict[str, Callable[..., Any]] = {
    "context": package_service.context, "served_to": receipt_service.served_to,
    "tasks_served": receipt_service.tasks_served,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
