"""Merge two entities reversibly (the merged name becomes an alias) and undo it."""

from __future__ import annotations

from datetime import datetime

from credo.graph import entities as entity_repo
from credo.graph import ledger
from credo.graph.db import Tx
from credo.schema.entities import Entity
from credo.schema.errors import InvalidInput, NotFound
from credo.services.context import Context


def _find(tx: Tx, tenant: str, name: str, field: str) -> Entity:
    found = entity_repo.find(tx, tenant, name)
    if found is None:
        raise NotFound("entity", name)
    return found


def merge_entities(ctx: Context, *, keep: str, other: str) -> Entity:
    """Merge `other` into `keep`: reads of `keep` include `other`'s facts; `other`'s name becomes an alias."""

    def work(tx: Tx, known: datetime) -> Entity:
        kept, merged = _find(tx, ctx.tenant, keep, "keep"), _find(tx, ctx.tenant, other, "other")
        if kept.entity_id == merged.entity_id:
            raise InvalidInput("other", f"{other!r} already resolves to {kept.name!r}")
        entity_repo.merge(tx, known, kept.entity_id, merged.entity_id)
        ledger.audit(tx, ctx.tenant, known, [("merge_entities", kept.entity_id, {"other": merged.entity_id})])
        return entity_repo.find(tx, ctx.tenant, kept.name)

    return ctx.write(work)


def unmerge_entities(ctx: Context, *, other: str) -> Entity:
    """Undo a merge: `other` is its own entity again and leaves the keeper's aliases."""

    def work(tx: Tx, known: datetime) -> Entity:
        entity = entity_repo.own(tx, ctx.tenant, other)
        if entity is None:
            raise NotFound("entity", other)
        keeper = entity_repo.unmerge(tx, known, entity.entity_id)
        if keeper is None:
            raise InvalidInput("other", f"{other!r} is not merged into another entity")
        ledger.audit(tx, ctx.tenant, known, [("unmerge_entities", entity.entity_id, {"from": keeper})])
        return entity

    return ctx.write(work)
