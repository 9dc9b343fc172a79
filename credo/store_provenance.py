"""Store methods for provenance and the write gate (sources, turns, acceptance, extraction, why)."""

from __future__ import annotations

from credo.services.context import Context


class ProvenanceMixin:
    """Provenance half of the public API; mixed into `credo.Store`."""

    _ctx: Context
