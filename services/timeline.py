"""Every version ever recorded about an entity: the rectangles of its valid time × known time picture."""

from __future__ import annotations

from datetime import datetime, timezone

from credo.graph import facts as fact_repo
from credo.graph.db import Tx
from credo.schema.errors import NotFound
from credo.schema.facts import Fact, Listing
from credo.schema.lifecycle import State
from credo.schema.names import clean_name
from credo.services.context import Context
from credo.services.read_facts import entity_ids
from credo.graph.records import readable

_EPOCH = datetime(1, 1, 1, tzinfo=timezone.utc)
ALL_STATES = sorted(s.value for s in State)


def entity_versions(ctx: Context, *, entity: str) -> list[Fact]:
    """Every version of every fact whose subject is the entity (merges believed now followed), oldest belief first."""
    name = clean_name(entity, "entity")

    def work(tx: Tx) -> list[Fact]:
        ids = entity_ids(tx, ctx.tenant, name)
        if not ids:
            raise NotFound("entity", name)
        believed = fact_repo.as_of(tx, ctx.tenant, subject_ids=ids, valid_at=ctx.now(), known_at=None,
                                   states=ALL_STATES, include_undated=True, any_valid=True)
        fact_ids = sorted({f.fact_id for f in believed} | {u.fact_id for u in believed.unreadable if u.fact_id})
        found: list[Fact] = []
        for fact_id in fact_ids:
            found += fact_repo.versions_of(tx, ctx.tenant, fact_id)
        return found

    found = ctx.read(work)
    found.sort(key=lambda f: (f.known_from, f.valid_from or _EPOCH))
    return readable(found, "entity_versions") if found else Listing()
