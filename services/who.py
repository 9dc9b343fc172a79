"""Who is who at a (valid, known) point: relations of an entity, holders of a role, and paths between two."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph import entities as entity_repo
from credo.graph import facts as fact_repo
from credo.graph.db import Tx
from credo.schema.errors import InvalidInput, NotFound
from credo.schema.facts import Fact, PathStep, Relation, literal
from credo.schema.lifecycle import SERVED_VALUES
from credo.services.context import Context
from credo.services.read_facts import points
from credo.services.support import served_at


def _entity(tx: Tx, tenant: str, name: str, known_at: datetime | None):
    found = entity_repo.find(tx, tenant, name, known_at)
    if found is None:
        raise NotFound("entity", name)
    return found


def relations(ctx: Context, *, entity: str, valid_at: Any = None, known_at: Any = None) -> list[Relation]:
    """Every served relation of an entity at the point, both directions (incoming ones under their inverse name)."""
    valid, known = points(ctx, valid_at, known_at)

    def work(tx: Tx) -> list[Relation]:
        # one query: the entity, both directions and the inverse names (four round trips before)
        found = fact_repo.relations(tx, ctx.tenant, entity_repo.normalise(entity), valid_at=valid, known_at=known,
                                    states=SERVED_VALUES)
        if found is None:
            raise NotFound("entity", entity)
        out, inc = found
        result = [Relation(direction="out", predicate=f.predicate, other=f.object_name, fact=f) for f in out]
        result += [
            Relation(direction="in", predicate=inverse or f"{f.predicate} (of)", other=f.subject, fact=f)
            for f, inverse in inc
        ]
        return result

    return ctx.read(work)


def holders(ctx: Context, *, predicate: str, object: Any, valid_at: Any = None, known_at: Any = None) -> list[Fact]:
    """Who held `predicate object` at the point ("who owned the Acme account on 2024-03-01")."""
    valid, known = points(ctx, valid_at, known_at)

    def work(tx: Tx) -> list[Fact]:
        if isinstance(object, str):
            target = entity_repo.find(tx, ctx.tenant, object, known)
            if target is None:
                return []
            return fact_repo.as_of(tx, ctx.tenant, object_ids=target.ids, predicate=predicate, valid_at=valid,
                                   known_at=known, states=SERVED_VALUES)
        return fact_repo.as_of(tx, ctx.tenant, predicate=predicate, object_value=literal(object).value,
                               valid_at=valid, known_at=known, states=SERVED_VALUES)

    return ctx.read(lambda tx: served_at(tx, ctx.tenant, work(tx), valid_at=valid, known_at=known))


def path(ctx: Context, *, a: str, b: str, valid_at: Any = None, known_at: Any = None, max_hops: int = 4) -> list[PathStep] | None:
    """A shortest chain of served relations joining two entities at the point, or None (breadth-first)."""
    if not 1 <= max_hops <= 8:
        raise InvalidInput("max_hops", "must be between 1 and 8")
    valid, known = points(ctx, valid_at, known_at)

    def work(tx: Tx) -> list[PathStep] | None:
        start, goal = _entity(tx, ctx.tenant, a, known), _entity(tx, ctx.tenant, b, known)
        canonical = {i: start.entity_id for i in start.ids} | {i: goal.entity_id for i in goal.ids}
        if start.entity_id == goal.entity_id:
            return []
        came_from: dict[str, tuple[str, str, Fact] | None] = {start.entity_id: None}
        frontier = list(start.ids)
        for _ in range(max_hops):
            nxt: list[str] = []
            for from_id, to_id, direction, fact in fact_repo.neighbours(
                tx, ctx.tenant, frontier, valid_at=valid, known_at=known, states=SERVED_VALUES
            ):
                src, dst = canonical.get(from_id, from_id), canonical.get(to_id, to_id)
                if dst in came_from:
                    continue
                came_from[dst] = (src, direction, fact)
                if dst == goal.entity_id:
                    return _walk_back(came_from, dst)
                nxt.append(to_id)
            if not nxt:
                return None
            frontier = nxt
        return None

    return ctx.read(work)


def _walk_back(came_from: dict[str, tuple[str, str, Fact] | None], node: str) -> list[PathStep]:
    steps: list[PathStep] = []
    while came_from[node] is not None:
        src, _direction, fact = came_from[node]
        steps.append(PathStep(source=fact.subject, predicate=fact.predicate, target=fact.object_name, fact=fact))
        node = src
    return list(reversed(steps))
