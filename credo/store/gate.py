"""Store methods for provenance and the write gate (sources, turns, acceptance, extraction, why)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from credo.schema import commands as c
from credo.schema.commands import build
from credo.schema.consent import Remembered
from credo.schema.facts import Fact
from credo.schema.provenance import ExtractionResult, WhyTree
from credo.schema.sources import Source
from credo.services.gate import acceptance
from credo.services.gate import admission
from credo.services.gate import extraction
from credo.services.facts import merge as merge_facts
from credo.services.gate import prov as prov_export
from credo.services.gate import sources
from credo.services.gate import turns
from credo.services.gate import why
from credo.services.core.context import Context
from credo.services.adapters.extractors import Extractor
from credo.services.gate.turns import Turn


class ProvenanceMixin:
    """Provenance half of the public API; mixed into `credo.Store`."""

    _ctx: Context

    # -- sources -------------------------------------------------------------------------------
    def add_source(self, kind: str, text: str, *, title: str | None = None, uri: str | None = None,
                   author: str | None = None, at: Any = None, origin: str | None = None) -> Source:
        """Record a document, tool result or observation; its text is immutable."""
        cmd = build(c.AddSource, kind=kind, text=text, title=title, uri=uri, author=author, at=at, origin=origin)
        return sources.add_source(self._ctx, cmd)

    def ingest_messages(self, session_id: str, messages: Sequence[Any], *, generation: int = 1) -> list[Source]:
        """Record conversation messages (index, role, origin, author, text, at) of one session generation."""
        cmd = build(c.IngestMessages, session_id=session_id, messages=list(messages), generation=generation)
        return sources.ingest_messages(self._ctx, cmd)

    def cite(self, fact_id: str, source_id: str, *, quote: str | None = None) -> None:
        """List a source (document, tool result, observation) under a fact; its evidence kind is unchanged."""
        sources.cite(self._ctx, build(c.Cite, fact_id=fact_id, source_id=source_id, quote=quote))

    # -- the write gate ------------------------------------------------------------------------
    def turn(self, session_id: str, *, generation: int | None = None, since: int | None = None) -> Turn:
        """The session's current turn (after the agent's last message, or from `since`); `.remember` is the gate."""
        return turns.open_turn(self._ctx, session_id=session_id, generation=generation, since=since)

    def remember(self, session_id: str, quote: str, content: str, **fields: Any) -> Remembered:
        """The write gate in one call: `turn(session_id).remember(quote, content, ...)`; a surfaced write (the
        default for semantic memory) awaits `consent`, and its answer's `surface` is the line to show the person."""
        return turns.remember(self._ctx, build(c.Remember, session_id=session_id, quote=quote, content=content,
                                               **fields))

    def accept(self, fact_id: str, message: Any) -> Fact:
        """Record that a human message ({session_id, index[, generation]}) accepted an agent's conclusion."""
        cmd = build(c.Accept, fact_id=fact_id, message=message)
        return acceptance.accept(self._ctx, cmd)

    def extract(self, session_id: str, extractor: Extractor, *, segment_size: int = 20) -> ExtractionResult:
        """Extract candidates from the session's unconsumed messages; only the final set commits, atomically."""
        cmd = build(c.Extract, session_id=session_id, segment_size=segment_size)
        return extraction.extract(self._ctx, cmd, extractor=extractor)

    def admit(self, fact_id: str, *, by: str) -> Fact:
        """Admit a candidate as current knowledge, naming who (or which policy) admits it."""
        return admission.admit(self._ctx, build(c.Admit, fact_id=fact_id, by=by))

    def reject(self, fact_id: str, *, reason: str) -> Fact:
        """Reject a candidate; it is kept with the reason and never served."""
        return admission.reject(self._ctx, build(c.Reject, fact_id=fact_id, reason=reason))

    def merge_facts(self, fact_ids: Sequence[str], *, statement: str) -> Fact:
        """One canonical fact from several; evidence is the weakest of the inputs, every source is kept."""
        cmd = build(c.MergeFacts, fact_ids=fact_ids, statement=statement)
        return merge_facts.merge_facts(self._ctx, cmd)

    # -- explaining ----------------------------------------------------------------------------
    def why(self, fact_id: str, *, known_at: Any = None) -> WhyTree:
        """Why the fact is held (as believed at `known_at`): evidence, quotes, acceptance, premises, supersessions."""
        return why.why(self._ctx, build(c.WhyQuery, fact_id=fact_id, known_at=known_at))

    def export_prov(self, fact_id: str, *, known_at: Any = None) -> dict[str, Any]:
        """The fact's provenance as a W3C PROV-JSON document (as known at `known_at`, like `why`)."""
        return prov_export.export_prov(self._ctx, build(c.ExportProv, fact_id=fact_id, known_at=known_at))


HANDLERS: dict[str, Callable[..., Any]] = {
    "add_source": sources.add_source, "ingest_messages": sources.ingest_messages, "cite": sources.cite,
    "remember": turns.remember, "accept": acceptance.accept, "extract": extraction.extract,
    "admit": admission.admit, "reject": admission.reject, "merge_facts": merge_facts.merge_facts, "why": why.why,
    "export_prov": prov_export.export_prov,
}
"""This mixin's operations whose service entry point takes its command, `(ctx, cmd)` (see `Store.handle`); `extract`
takes its extractor after the command (`Store.handle(op, cmd, **extras)`)."""
