"""Migration 0024: a cascade flag's path written as a list of fact ids (before 0024) becomes the text readers show,
and every reader (stale, history, facts, the belief diff) gives the same stale cause before and after."""

from __future__ import annotations

import pytest

from credo import cypher
from credo.ops.migrate import statements

pytestmark = pytest.mark.usefixtures("semantic_logged")


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_PATHS = _Q("MATCH (f:Fact {tenant: $tenant})-[g:FLAGGED]->() RETURN f.fact_id AS fact_id, g.path AS path")
# the path as the flag write stored it before migration 0024: a list of fact ids
_AS_LIST = _Q("MATCH (f:Fact {tenant: $tenant})-[g:FLAGGED]->() WHERE g.path IS NOT NULL "
              "SET g.path = split(g.path, ' -> ') RETURN count(g) AS n")


def _rule(store, name, depends_on=None):
    return store.add_fact(name, "is", "rule", statement=name, depends_on=depends_on, valid_from="2025-01-01")


def _migrate_0024(db):
    [(_version, _name, text)] = [m for m in cypher.migrations() if m[0] == 24]
    for statement in statements(text):
        db.run_schema(statement)


def test_list_paths_become_text_and_every_reader_shows_the_same_cause(store, clock):
    # given p <- a <- b and c resting on p, p retracted (a cascade: one flag per dependent, each with its path)
    clock.at("2025-02-01")
    p = _rule(store, "p")
    a = _rule(store, "a", [p.fact_id])
    b = _rule(store, "b", [a.fact_id])
    c = _rule(store, "c", [p.fact_id])
    clock.at("2025-03-01")
    store.retract_fact(p.fact_id, reason="p was wrong")
    db = store._ctx.db
    written = {r["fact_id"]: r["path"] for r in db.query(_PATHS, tenant=store.tenant)}
    assert written[b.fact_id] == f"{p.fact_id} -> {a.fact_id} -> {b.fact_id}"
    stale = {i.id: i.cause for i in store.stale()}
    assert stale[b.fact_id].endswith(f"; path {p.fact_id} -> {a.fact_id} -> {b.fact_id}")
    history = {f: store.history(f)[0].stale_cause for f in (a.fact_id, b.fact_id, c.fact_id)}
    diff = store.diff("2025-02-15", "2025-03-15").model_dump()
    assert any(ch.get("cause") == stale[b.fact_id] for ch in diff["changes"]), diff["changes"]
    # when the paths are put back in the shape written before 0024 (lists) and migration 0024 runs, twice
    assert db.query(_AS_LIST, write=True, tenant=store.tenant)[0]["n"] == 3
    assert db.query(_PATHS, tenant=store.tenant)[0]["path"] and all(
        isinstance(r["path"], list) for r in db.query(_PATHS, tenant=store.tenant))
    _migrate_0024(db)
    _migrate_0024(db)
    # then every path is the text again, and the readers show the same causes
    assert {r["fact_id"]: r["path"] for r in db.query(_PATHS, tenant=store.tenant)} == written
    assert {i.id: i.cause for i in store.stale()} == stale
    assert {f: store.history(f)[0].stale_cause for f in (a.fact_id, b.fact_id, c.fact_id)} == history
    assert store.diff("2025-02-15", "2025-03-15").model_dump() == diff
