"""A point read reads each candidate version of its entity once: the believed-at-known-time condition must not
lead the planner to seek the entity's versions twice (a union of two index seeks, one per side of an OR), which
doubled the server's work of every `facts`, `holders` and `relations` read."""

from __future__ import annotations

import pytest

from credo.graph.core.versions import READ_FACTS_BY_OBJECT_NAME, READ_FACTS_BY_SUBJECT_NAME, READ_RELATIONS
from credo.schema.lifecycle import SERVED_VALUES
from credo.store import Store

FAR = "9999-12-31T00:00:00+00:00"
AT = "2021-06-01T00:00:00+00:00"
STINTS = 12


def _seek_rows(profile: dict) -> int:
    """Rows that index seeks and scans on :Fact produced, over the whole plan."""
    own = profile.get("rows", 0) if profile["operatorType"].split("@")[0] in (
        "NodeIndexSeek", "NodeIndexScan", "NodeByLabelScan", "NodeIndexContainsScan") and ":Fact(" in str(
        profile.get("args", {}).get("Details", "")) else 0
    return own + sum(_seek_rows(child) for child in profile.get("children", []))


def _profiled_seek_rows(db, text: str, **params) -> int:
    with db._driver.session(database=db.database) as session:
        result = session.run("PROFILE " + text, params)
        list(result)
        return _seek_rows(result.consume().profile)


@pytest.fixture
def club_history(neo4j_db, tenant, clock) -> Store:
    """Ada played for twelve clubs in turn, and twelve players played for the Rovers in turn: each entity has
    twelve versions to sort through at any point."""
    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    store.define_predicate("plays_for", cardinality="multi")
    rows = [{"subject": "Ada", "predicate": "plays_for", "object": f"Club {i}", "valid_from": str(2010 + i),
             "valid_to": str(2011 + i)} for i in range(STINTS)]
    rows += [{"subject": f"Player {i}", "predicate": "plays_for", "object": "Rovers", "valid_from": str(2010 + i),
              "valid_to": str(2011 + i)} for i in range(STINTS)]
    store.add_facts(rows)
    return store


@pytest.mark.parametrize("levels", [["*", "*"], ["public", "internal"]], ids=["clearance all", "clearance internal"])
@pytest.mark.parametrize("read", ["facts", "holders", "relations"])
def test_a_point_read_seeks_each_candidate_version_once(neo4j_db, tenant, club_history, read, levels):
    point = {"tenant": tenant, "valid_at": AT, "known_at": FAR, "states": list(SERVED_VALUES), "levels": levels}
    named = {**point, "include_undated": True, "any_valid": False, "predicate": "plays_for", "scope_key": None}
    query, params = {
        "facts": (READ_FACTS_BY_SUBJECT_NAME, {**named, "norm": "ada", "object_norm": None, "object_value": None}),
        "holders": (READ_FACTS_BY_OBJECT_NAME, {**named, "norm": "rovers"}),
        "relations": (READ_RELATIONS, {**point, "norm": "ada"}),
    }[read]
    # when the entity's facts are read as of one point
    rows = _profiled_seek_rows(neo4j_db, query.body, **params)
    # then its twelve versions come out of the index once each, not once per side of an OR (the clearance filter
    # adds no seek, whatever the caller's clearance)
    assert rows == STINTS, rows


def test_a_closed_version_whose_known_to_is_not_an_instant_is_never_served_as_believed(neo4j_db, tenant, clock):
    # given Ada's old club ended by a succession, and its closing instant overwritten by hand with a date (a bad write)
    from credo.cypher import Query

    store = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False)
    old = store.add_fact("Ada", "plays_for", "Rovers", valid_from="2019")
    store.succeed_fact(old.fact_id, object="United", at="2021")
    broken = Query("test_break_known_to", "MATCH (f:Fact {tenant: $tenant, version_id: $v}) "
                   "SET f.known_to = date('2020-01-01') RETURN count(f) AS n", frozenset({"tenant", "v"}))
    assert neo4j_db.write(lambda tx: tx.one(broken, tenant=tenant, v=old.version_id))["n"] == 1
    # when Ada's club in 2020 is read as believed now
    found = store.facts("Ada", "plays_for", valid_at="2020-06-01")
    # then the closed version is not served as if it were still believed
    assert [f.version_id for f in found] == [f.version_id for f in store.history(old.fact_id) if f.known_to is None
                                             and f.object_name == "Rovers"]
    assert old.version_id not in [f.version_id for f in found]
