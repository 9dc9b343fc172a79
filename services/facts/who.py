"""Who is who at a (valid, known) point: relations of an entity, holders of a role, and paths between two."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from credo.graph.facts import entities as entity_repo
from credo.graph.facts import relations as relations_repo
from credo.graph.core import versions as fact_repo
from credo.graph.core.db import Tx
from credo.graph.core.records import readable
from credo.schema import commands as c
from credo.schema.errors import InvalidInput, NotFound
from credo.schema.facts import AsOf, Fact, PathStep, Relation, literal
from credo.schema.lifecycle import SERVED_VALUES
from credo.schema.names import clean_name, normalise_predicate
from credo.schema.pages import After, key_parts
from credo.services.core.context import Context
from credo.services.facts.evidence import weak_versions
from credo.services.facts.read import points
from credo.services.core.support import served_at


def _entity(tx: Tx, tenant: str, name: str, known_at: datetime | None):
    found = entity_repo.find(tx, tenant, name, known_at)
    if found is None:
        raise NotFound("entity", name)
    return found


def relations(ctx: Context, cmd: c.WhoQuery, *, page: After | None = None) -> AsOf[Relation]:
    """Every served relation of an entity at the point, both directions (incoming ones under their inverse name);
    the undated ones that may hold there follow, apart and marked. A `page` is cut in the query by key, in the
    same order (`.next_after`)."""
    entity, valid_at, known_at = clean_name(cmd.entity, "entity"), cmd.valid_at, cmd.known_at
    valid, known = points(ctx, valid_at, known_at)
    if page is not None:
        after = _relation_after(page)
        return ctx.read(lambda tx: _relations_page(tx, ctx.tenant, entity, page, after, valid=valid, known=known))

    def work(tx: Tx) -> AsOf[Relation]:
        # one query: the entity, both directions and the inverse names (four round trips before)
        found = fact_repo.relations(tx, ctx.tenant, entity_repo.normalise(entity), valid_at=valid, known_at=known,
                                    states=SERVED_VALUES)
        if found is None:
            raise NotFound("entity", entity)
        out, inc, premised, sourced = found
        result = [_relation(f, incoming=False) for f in out]
        result += [_relation(f, incoming=True, inverse=inverse) for f, inverse in inc]
        return _served(tx, ctx.tenant, AsOf(result, out.unreadable + inc.unreadable), premised, sourced,
                       valid=valid, known=known)

    return ctx.read(work)


def _relation(fact: Fact, *, incoming: bool, inverse: str | None = None) -> Relation:
    if incoming:
        return Relation(direction="in", predicate=inverse or f"{fact.predicate} (of)", other=fact.subject, fact=fact)
    return Relation(direction="out", predicate=fact.predicate, other=fact.object_name, fact=fact)


def _served(tx: Tx, tenant: str, found: AsOf[Relation], premised: set[str], sourced: set[str], *, valid: datetime,
            known: datetime | None) -> AsOf[Relation]:
    """The relations served at the point, the weak ones marked."""
    # a relation resting on premises not valid at the point is not served there (DESIGN §5); only those
    # resting on some are checked (none: no second round trip)
    served = served_at(tx, tenant, found, valid_at=valid, known_at=known, fact=lambda r: r.fact, premised=premised)
    # no query when none could be weak (a relation with no source linked never is)
    weak = weak_versions(tx, [r.fact for r in served if r.fact.version_id in sourced], known)
    if not weak:
        return served
    return AsOf([r.model_copy(update={"weak": True}) if r.fact.version_id in weak else r for r in served],
                served.unreadable)


def _relation_after(page: After) -> list[str] | None:
    """The page's key, checked to be a relation's ([rank 0 to 3, valid_from or "", known_from, version id]); another
    shape is bad input naming the cursor."""
    if page.key is None:
        return None
    rank, _valid, known, _version = key_parts(page, "text", "instant", "instant", "text")
    if rank not in ("0", "1", "2", "3") or known is None:
        raise InvalidInput("cursor", "is not a cursor of this listing")
    return list(page.key)


def _relations_page(tx: Tx, tenant: str, entity: str, page: After, after: list[str] | None, *, valid: datetime,
                    known: datetime | None) -> AsOf[Relation]:
    """One page of an entity's relations: rows read in the query one more than wanted (to know whether more
    follow); a relation unreadable, or unsupported at the point, is passed over and the page refilled from where its
    query stopped, so a page is never short while more follow."""
    kept: list[Relation] = []
    unreadable: list[Any] = []
    norm = entity_repo.normalise(entity)
    while True:
        want = page.limit - len(kept)
        found = relations_repo.relations_page(tx, tenant, norm, valid_at=valid, known_at=known,
                                              states=SERVED_VALUES, after=after, limit=want + 1)
        if found is None:
            raise NotFound("entity", entity)
        head = found[:want]
        rows = readable(head, "relations", lambda row: row.fact)
        unreadable += rows.unreadable
        believed = fact_repo.as_believed([row.fact for row in rows], known)
        result = AsOf([_relation(f, incoming=row.incoming, inverse=row.inverse) for row, f in zip(rows, believed)])
        kept += _served(tx, tenant, result, {row.fact.fact_id for row in rows if row.premised},
                        {row.fact.version_id for row in rows if row.sourced}, valid=valid, known=known)
        ended = len(found) <= want
        if head:
            after = relations_repo.relation_key(head[-1])
        if ended or len(kept) == page.limit:
            listing = AsOf(kept, unreadable)
            listing.next_after = None if ended else after
            return listing


def holders(ctx: Context, cmd: c.HoldersQuery) -> AsOf[Fact]:
    """Who held `predicate object` at the point ("who owned the Acme account on 2024-03-01"); the undated
    holders that may hold it there follow, apart and marked."""
    predicate, object, valid_at, known_at = normalise_predicate(cmd.predicate), cmd.object, cmd.valid_at, cmd.known_at
    if object is None:
        raise InvalidInput("object", "name the entity or literal held (e.g. holders('owned_by', 'Bob'))")
    valid, known = points(ctx, valid_at, known_at)

    def work(tx: Tx) -> AsOf[Fact]:
        if isinstance(object, str):
            # the name is resolved inside the as-of query: one round trip
            found, premised = fact_repo.as_of_named(tx, ctx.tenant, object_norm=entity_repo.normalise(object),
                                                    predicate=predicate, valid_at=valid, known_at=known,
                                                    states=SERVED_VALUES, include_undated=True)
        else:
            found, premised = fact_repo.as_of(
                tx, ctx.tenant, predicate=predicate, object_value=literal(object).value, valid_at=valid,
                known_at=known, states=SERVED_VALUES, include_undated=True), None
        # premises valid at valid_at (queried only for versions that rest on some)
        return served_at(tx, ctx.tenant, found, valid_at=valid, known_at=known, premised=premised)

    return ctx.read(work)


def path(ctx: Context, cmd: c.PathQuery) -> list[PathStep] | None:
    """A shortest chain of served relations joining two entities at the point, or None (breadth-first).

    A chain of dated relations is the answer whenever one exists; only when none does may the chain use undated
    relations (start unknown, not ended by the point), and every such hop is marked `undated` on its step.
    """
    a, b, max_hops = clean_name(cmd.a, "a"), clean_name(cmd.b, "b"), cmd.max_hops  # 1..8, by the command
    valid_at, known_at = cmd.valid_at, cmd.known_at
    valid, known = points(ctx, valid_at, known_at)

    def work(tx: Tx) -> list[PathStep] | None:
        start, goal = _entity(tx, ctx.tenant, a, known), _entity(tx, ctx.tenant, b, known)
        if start.entity_id == goal.entity_id:
            return []
        for include_undated in (False, True):
            found = _breadth_first(tx, ctx.tenant, start, goal, valid=valid, known=known, max_hops=max_hops,
                                   include_undated=include_undated)
            if found is not None:
                return found
        return None

    return ctx.read(work)


def _breadth_first(tx: Tx, tenant: str, start: Any, goal: Any, *, valid: datetime, known: datetime | None,
                   max_hops: int, include_undated: bool) -> list[PathStep] | None:
    canonical = {i: start.entity_id for i in start.ids} | {i: goal.entity_id for i in goal.ids}
    came_from: dict[str, tuple[str, str, Fact] | None] = {start.entity_id: None}
    frontier = list(start.ids)
    for _ in range(max_hops):
        nxt: list[str] = []
        for from_id, to_id, direction, fact in fact_repo.neighbours(
            tx, tenant, frontier, valid_at=valid, known_at=known, states=SERVED_VALUES, include_undated=include_undated
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


def _walk_back(came_from: dict[str, tuple[str, str, Fact] | None], node: str) -> list[PathStep]:
    steps: list[PathStep] = []
    while came_from[node] is not None:
        src, _direction, fact = came_from[node]
        steps.append(PathStep(source=fact.subject, predicate=fact.predicate, target=fact.object_name, fact=fact))
        node = src
    return list(reversed(steps))
