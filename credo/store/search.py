"""Store methods for recall: hybrid search (issue 11)."""

from __future__ import annotations

from collections.abc import Callable

from typing import Any

from credo.schema import commands_search as cs
from credo.schema.commands import build
from credo.schema.search import SearchResult
from credo.services.recall import search as search_service
from credo.services.core.context import Context


class SearchMixin:
    """Recall half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def search(
        self, query: str, *, valid_at: Any = None, known_at: Any = None, scope: dict[str, str] | None = None,
        kinds: Any = None, states: Any = None, limit: int = 10, task: str | None = None,
    ) -> SearchResult:
        """The `limit` best facts, entities and summaries for a question (full text + vectors + graph, fused by
        reciprocal rank), filtered before ranking by tenant, clearance, scope, states and both time axes; `task`
        records the fact versions served as a read receipt (`served_to(task)`)."""
        cmd = build(cs.SearchQuery, query=query, valid_at=valid_at, known_at=known_at, scope=scope, kinds=kinds,
                    states=states, limit=limit, task=task)
        return search_service.search(self._ctx, cmd)


HANDLERS: dict[str, Callable[..., Any]] = {"search": search_service.search}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
