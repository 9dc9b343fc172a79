"""Store method of the pipelined bulk import (services/facts/imports.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from credo.schema import commands_import as c
from credo.schema.commands import build
from credo.schema.imports import ImportReport
from credo.services.facts import imports as import_service
from credo.services.core.context import Context


class ImportMixin:
    """Bulk import half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    def import_facts(self, rows: Iterable[dict[str, Any]], *, batch_size: int = 1000,
                     progress: import_service.Progress | None = None) -> ImportReport:
        """Import rows (add_fact's fields) in atomic batches, embedding batch n+1 while batch n is written; the
        first bad batch stops it: the report names its row and field and the batches committed before it.
        `progress(batch)` is called after each commit. `rows` may be any iterable (a generator over a file)."""
        # the rows are checked batch by batch, as the service reads them: the command carries any iterable as it is
        # (a generator over a file is never held as one list), its batch size validated here
        cmd = build(c.ImportFacts, rows=[], batch_size=batch_size).model_copy(update={"rows": rows})
        return import_service.import_facts(self._ctx, cmd, progress=progress)


HANDLERS: dict[str, Callable[..., Any]] = {"import_facts": import_service.import_facts}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`)."""
