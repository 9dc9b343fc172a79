"""Issue 9 item 2: the cascade walk is one id-returning traversal; the support rule runs in Python over ids."""

from __future__ import annotations

import pytest

from credo.graph.core.db import Tx


def rule(store, name, *, depends_on=None):
    return store.add_fact(name, "is", "rule", statement=f"rule {name}", depends_on=depends_on,
                          valid_from="2025-01-01")


@pytest.fixture
def queries(monkeypatch):
    """Names of the Cypher queries run from now on (observed on our own Tx, Neo4j still answers)."""
    seen: list[str] = []
    rows = Tx.rows

    def counted(self, query, **params):
        seen.append(query.name)
        return rows(self, query, **params)

    monkeypatch.setattr(Tx, "rows", counted)
    return seen


def test_a_six_level_walk_with_a_diamond_and_a_cycle_collects_its_dependents_in_one_query(store, clock, queries):
    # given a chain p <- c1 <- ... <- c6, a diamond (join rests on left and c3) and a cycle c6 <-> loop
    p = rule(store, "p")
    chain, prev = [], p
    for i in range(1, 7):
        prev = rule(store, f"c{i}", depends_on=[prev.fact_id])
        chain.append(prev)
    left = rule(store, "left", depends_on=[p.fact_id])
    join = rule(store, "join", depends_on=[left.fact_id, chain[2].fact_id])
    loop = rule(store, "loop", depends_on=[chain[5].fact_id])
    store.justify(chain[5].fact_id, premises=[loop.fact_id])
    clock.at("2025-03-01")
    queries.clear()
    # when p is retracted
    [gone] = store.retract_fact(p.fact_id, reason="p was wrong")
    # then every dependent is flagged once, the walk ran one query, and the report still names each statement
    report = gone.cascade
    assert sorted(f.fact_id for f in report.facts) == sorted(f.fact_id for f in [*chain, left, join, loop])
    assert 1 <= queries.count("read_dependents_level") <= 4  # levelwise, two levels per query, 7 deep
    assert report.fact(join.fact_id).path == [p.fact_id, left.fact_id, join.fact_id]
    assert report.fact(loop.fact_id).depth == 7
    assert {f.fact_id: f.statement for f in report.facts}[chain[3].fact_id] == "rule c4"


def test_a_dependent_resting_on_an_earlier_version_of_a_dependent_is_still_reached(store, clock):
    # given p <- g <- h, then g gets a new version (its valid time corrected): h's edge names g's first version
    p = rule(store, "p")
    g = rule(store, "g", depends_on=[p.fact_id])
    h = rule(store, "h", depends_on=[g.fact_id])
    clock.at("2025-02-01")
    store.correct_fact(g.fact_id, valid_from="2024-06-01")
    clock.at("2025-03-01")
    # when p is retracted
    [gone] = store.retract_fact(p.fact_id, reason="p was wrong")
    # then h lost its support through g and is flagged, with its path through g
    assert [(f.fact_id, f.path) for f in gone.cascade.facts] == [
        (g.fact_id, [p.fact_id, g.fact_id]), (h.fact_id, [p.fact_id, g.fact_id, h.fact_id])]
    assert sorted(gone.cascade.checked) == sorted([g.fact_id, h.fact_id])


def test_a_stale_dependent_is_checked_but_not_walked_through(store, clock):
    # given p <- a <- b, and a second premise q <- a; a and b already stale after q's retraction
    p = rule(store, "p")
    q = rule(store, "q")
    a = rule(store, "a", depends_on=[p.fact_id, q.fact_id])
    b = rule(store, "b", depends_on=[a.fact_id])
    clock.at("2025-02-01")
    store.retract_fact(q.fact_id, reason="q was wrong")
    clock.at("2025-03-01")
    # when p is retracted too
    [gone] = store.retract_fact(p.fact_id, reason="p was wrong")
    # then a is checked (and not flagged again); b, behind a stale fact, is not walked
    assert gone.cascade.checked == [a.fact_id] and gone.cascade.facts == []
    assert b.fact_id not in gone.cascade.checked


def test_a_retraction_with_ten_dependents_flags_them_in_the_statement_that_closes_the_write(store, clock, queries):
    # given a premise with ten dependents resting on it alone
    p = rule(store, "p")
    dependents = [rule(store, f"d{i}", depends_on=[p.fact_id]) for i in range(10)]
    clock.at("2025-03-01")
    queries.clear()
    # when it is retracted
    [gone] = store.retract_fact(p.fact_id, reason="p was wrong")
    # then the ten are flagged with their statements, and the write took three statements: the clock, the versions
    # read and closed together with the walk's first step, and the flags travelling with the ledger rows that close
    # the write
    assert sorted(f.fact_id for f in gone.cascade.facts) == sorted(d.fact_id for d in dependents)
    assert {f.statement for f in gone.cascade.facts} == {f"rule d{i}" for i in range(10)}
    assert queries == ["tick_clock", "close_current_versions", "finish_write_flagging"]
    assert sorted(item.id for item in store.stale()) == sorted(d.fact_id for d in dependents)
    events = [e for e in store.audit(operation="cascade").items]
    assert len(events) == 1 and sorted(events[0].detail["flagged"]) == sorted(d.fact_id for d in dependents)


def test_a_retraction_with_no_dependents_takes_three_statements_and_flags_nothing(store, clock, queries):
    # given a fact nothing rests on, and a premise whose dependent rests on an earlier version of it
    lone = rule(store, "lone")
    p = rule(store, "p")
    d = rule(store, "d", depends_on=[p.fact_id])
    clock.at("2025-02-01")
    store.correct_fact(p.fact_id, valid_from="2024-06-01")
    clock.at("2025-03-01")
    queries.clear()
    # when the lone fact is retracted
    [gone] = store.retract_fact(lone.fact_id, reason="wrong")
    # then nothing is flagged, and the write took the clock, the close (its walk finding nothing) and the closing rows
    assert gone.cascade.facts == [] and gone.cascade.checked == []
    assert queries == ["tick_clock", "close_current_versions", "finish_write"]
    # and a retraction whose walk starts in the closing statement still reaches a dependent of an earlier version
    [gone] = store.retract_fact(p.fact_id, reason="p was wrong")
    assert [f.fact_id for f in gone.cascade.facts] == [d.fact_id]


def test_a_walk_step_taken_by_the_closing_statement_is_asked_again_once_another_statement_ran(store, clock, queries):
    # given a premise with a dependent, closed by the statement that also takes the walk's first step
    from credo.graph.truth import dependencies
    from credo.graph.core import versions as fact_repo
    from credo.graph.core.ledger import TICK_CLOCK

    p = rule(store, "p")
    d = rule(store, "d", depends_on=[p.fact_id])

    def work(tx):
        fact_repo.close_current(tx, store.tenant, clock(), p.fact_id, "retraction", "test")
        first = dependencies.dependents(tx, store.tenant, [p.fact_id], with_given=True)
        fact_repo.close_current(tx, store.tenant, clock(), d.fact_id, "retraction", "test")
        tx.one(TICK_CLOCK, tenant=store.tenant, sealing=False, key_store=None)  # any other statement in between
        again = dependencies.dependents(tx, store.tenant, [d.fact_id], with_given=True)
        raise _Rollback(first, again)

    queries.clear()
    # when the walk starts right after the first close, and after another statement following the second
    with pytest.raises(_Rollback) as caught:
        store._db.write(work)
    first, again = caught.value.args
    # then the first step came from the close (no walk query), the second was asked again; both as the graph says
    assert queries.count("read_dependents_level") == 1
    assert [x.fact_id for x in first.dependents] == [d.fact_id] and first.given == {p.fact_id: []}
    assert again.dependents == [] and again.given == {d.fact_id: []}


class _Rollback(Exception):
    """Leaves a write transaction without committing, carrying what it saw."""


@pytest.fixture
def projected(monkeypatch):
    """Version ids of the dependents every walk statement returned (each projection counted)."""
    seen: list[str] = []
    rows = Tx.rows

    def counted(self, query, **params):
        found = rows(self, query, **params)
        if query.name in ("read_dependents_level", "close_current_versions"):
            seen.extend(d[1] for r in found for d in r["dependents"])
        return found

    monkeypatch.setattr(Tx, "rows", counted)
    return seen


def test_a_dependent_met_at_two_levels_of_the_walk_is_projected_once(store, clock, projected):
    # given p <- a <- b <- c <- d, and x resting on a and on d (met at level 2 through a, and again through d)
    p = rule(store, "p")
    a = rule(store, "a", depends_on=[p.fact_id])
    b = rule(store, "b", depends_on=[a.fact_id])
    c = rule(store, "c", depends_on=[b.fact_id])
    d = rule(store, "d", depends_on=[c.fact_id])
    x = rule(store, "x", depends_on=[a.fact_id])
    store.justify(x.fact_id, premises=[d.fact_id])
    clock.at("2025-03-01")
    projected.clear()
    # when p is retracted
    [gone] = store.retract_fact(p.fact_id, reason="p was wrong")
    # then every dependent is flagged, and each dependent's version was projected by the walk once
    assert sorted(f.fact_id for f in gone.cascade.facts) == sorted(f.fact_id for f in [a, b, c, d, x])
    assert sorted(projected) == sorted(set(projected)), projected
