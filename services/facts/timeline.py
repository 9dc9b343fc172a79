"""Every version ever recorded about an entity: the rectangles of its valid time × known time picture."""

from __future__ import annotations

from datetime import datetime, timezone

from credo.graph.core import versions as fact_repo
from credo.graph.core.db import Tx
from credo.schema import commands_inspector as ci
from credo.schema.errors import NotFound
from credo.schema.facts import Fact, Listing
from credo.schema.lifecycle import State
from credo.schema.names import clean_name
from credo.services.core.context import Context
from credo.services.facts.read import entity_ids
from credo.graph.core.records import readable

_EPOCH = datetime(1, 1, 1, tzinfo=timezone.utc)
ALL_STATES = sorted(s.value for s in State)  # the inspector's state filter


def entity_versions(ctx: Context, cmd: ci.EntityVersionsQuery) -> list[Fact]:
    """Every version of every fact whose subject is the entity (merges believed now followed), in every state and at
    every known time, oldest belief first."""
    name = clean_name(cmd.entity, "entity")

    def work(tx: Tx) -> list[Fact]:
        ids = entity_ids(tx, ctx.tenant, name)
        if not ids:
            raise NotFound("entity", name)
        return fact_repo.entity_versions(tx, ctx.tenant, ids)  # one query, only versions the caller may see

    found = ctx.read(work)
    found.sort(key=lambda f: (f.known_from, f.valid_from or _EPOCH))
    return readable(found, "entity_versions") if found else Listing()
