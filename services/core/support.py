"""Support at a valid time: a read serves a dependent at valid time t only while premises valid at t support it.

The cascade flags what lost support *now*; a premise may also end (or start) at another valid time, so an as-of
read re-checks its dependents at the read's own point, against what was believed at the read's known time (so a
read at a past known time stays reproducible). One extra query per premise level; none when nothing is served.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from credo.graph.truth import dependencies as dep_repo
from credo.graph.core.db import Tx
from credo.graph.truth.dependencies import Dependent
from credo.schema.facts import AsOf
from credo.schema.lifecycle import is_served
from credo.services.truth.rules import believed_now, supported_at


def served_at(
    tx: Tx, tenant: str, found: list[Any], *, valid_at: datetime, known_at: datetime | None,
    fact: Callable[[Any], Any] = lambda item: item, premised: set[str] | None = None,
) -> AsOf:
    """`found` (facts, or items whose `fact(item)` is one) without the served versions no premise valid at
    `valid_at` supports (as believed at known_at); dated and undated kept apart, unreadable rows still named.
    `premised`, when the read knows it, names the facts whose returned version rests on premises: a version
    resting on nothing supports itself, so only those are checked (no query when it is empty)."""
    unreadable = getattr(found, "unreadable", ())
    ids = sorted({fact(i).fact_id for i in found if is_served(fact(i).state)
                  and (premised is None or fact(i).fact_id in premised)})
    if not ids:
        return AsOf(found, unreadable)
    views: dict[str, list[Dependent]] = {}
    frontier = ids
    while frontier:
        level = dep_repo.support_known_at(tx, tenant, frontier, known_at)
        views.update(level)
        premises = {p for versions in level.values() for v in versions if believed_now([v], valid_at)
                    for group in v.justifications.values() for p in group}
        frontier = sorted(premises - set(views))
    supported = supported_at(views, valid_at)
    checked = set(ids)
    return AsOf([i for i in found if fact(i).fact_id not in checked or fact(i).fact_id in supported], unreadable)
