"""The write as an object: the unit of work owns what a write collects, runs the pre-commit steps others register
(the cascade), and nothing is hung on the driver's transaction."""

from __future__ import annotations

import subprocess
import sys

import pytest

from credo.schema import commands as c
from credo.schema.command_base import build
from credo.services.core import unit_of_work
from credo.services.core.context import Context
from credo.services.core.versions import retire_current
from credo.services.facts import revise


def rule(store, name, *, depends_on=None):
    return store.add_fact(name, "is", "rule", statement=name, depends_on=depends_on, valid_from="2025-01-01")


def test_importing_the_core_alone_wires_the_cascade_as_every_writes_pre_commit_step():
    # a fresh interpreter that imports only the core's context (as a test building a Context directly does)
    code = ("from credo.services.core.context import Context\n"
            "from credo.services.core.unit_of_work import pre_commit_steps\n"
            "print(sorted(type(s).__name__ for s in pre_commit_steps()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['Cascade']"


def test_a_write_through_a_context_built_directly_runs_the_cascade(store, neo4j_db, tenant, clock):
    # given a premise and a rule resting on it (written through the Store)
    p = rule(store, "p")
    r = rule(store, "r", depends_on=[p.fact_id])
    clock.at("2025-03-01")
    # when the premise is retracted through a Context nobody wired but the core (no Store, no bootstrap)
    ctx = Context(db=neo4j_db, tenant=tenant, clock=clock, cipher=store._ctx.cipher)  # the suite may run sealed
    retracted = revise.retract_fact(ctx, build(c.RetractFact, fact_id=p.fact_id, reason="wrong"))
    # then the cascade ran inside that write: the rule went stale, and the write's report names it
    assert retracted[0].cascade is not None and [f.fact_id for f in retracted[0].cascade.facts] == [r.fact_id]
    assert store.history(r.fact_id)[-1].state == "stale"


def test_a_write_that_stopped_believing_something_nobody_rechecked_is_refused_and_writes_nothing(
        store, neo4j_db, tenant, clock, monkeypatch):
    p = rule(store, "p")
    r = rule(store, "r", depends_on=[p.fact_id])
    clock.at("2025-03-01")
    monkeypatch.setattr(unit_of_work, "_PRE_COMMIT", [])  # as if the cascade had never registered
    with pytest.raises(RuntimeError, match="no pre-commit step"):
        store.retract_fact(p.fact_id, reason="wrong")
    monkeypatch.undo()
    assert [v.known_to for v in store.history(p.fact_id)] == [None]
    assert store.history(r.fact_id)[-1].state == "active"


def test_registering_a_step_twice_runs_it_once():
    before = unit_of_work.pre_commit_steps()
    unit_of_work.register(type(before[0])())
    assert unit_of_work.pre_commit_steps() == before


def test_a_write_leaves_nothing_on_the_transaction_but_its_declared_fields(store, neo4j_db, tenant, clock):
    p = rule(store, "p")
    rule(store, "r", depends_on=[p.fact_id])
    clock.at("2025-03-01")
    seen = []
    ctx = Context(db=neo4j_db, tenant=tenant, clock=clock, cipher=store._ctx.cipher)  # the suite may run sealed

    def work(w):
        seen.append(w)
        return retire_current(w, p.fact_id, "retraction", "wrong")

    ctx.write(work)
    [w] = seen
    # the cascade's fields were the unit of work's: consumed before commit, the ledger's rows appended
    assert w.changes.facts == [] and w.changes.summaries == [] and w.report is not None
    assert w.tx.state.audit == [] and w.tx.state.chain[0] > 0
    # the driver's transaction and Credo's wrapper hold only what their classes declare
    assert set(vars(w.tx)) == {"_tx", "statements", "levels", "state"}
    assert not [name for name in vars(w.tx._tx) if name.startswith("credo")]
