"""Store methods for premises, justifications, derived summaries and re-verification."""

from __future__ import annotations

from credo.services.context import Context


class CascadeMixin:
    """Truth-maintenance half of the public API; mixed into `credo.Store`."""

    _ctx: Context
