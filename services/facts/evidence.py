"""Read-time evidence marks of an answer: which relations are weak (asserted once by one tool call), read from the
sources the caller may see in one round trip, and only for the facts that could be weak (the rules:
services/facts/evidence_rules.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from credo.graph.core import evidence as evidence_repo
from credo.graph.core.db import Tx
from credo.schema.facts import Fact
from credo.services.facts.evidence_rules import may_be_weak, weak


def weak_versions(tx: Tx, facts: Iterable[Fact], known_at: datetime | None) -> set[str]:
    """Version ids of the weak relations among `facts`, as believed at known_at (no query when none could be)."""
    maybe = {f.version_id: f for f in facts if may_be_weak(f)}
    if not maybe:
        return set()
    found = evidence_repo.sources(tx, list(maybe), known_at)
    return {v for v, f in maybe.items() if weak(f, found.get(v, []))}
