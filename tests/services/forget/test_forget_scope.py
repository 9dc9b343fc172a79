"""Issue 12 item 3: scope-wide forgetting in batches, as a persisted job resumable after an interruption."""

from __future__ import annotations

import pytest

from credo.cypher import Query
from credo.schema.errors import NotFound
from credo.services.adapters.summarizers import ListSummarizer

_LEFT = Query("raw", "MATCH (f:Fact {tenant: $tenant}) WHERE f.statement IS NOT NULL OR f.forgotten_at IS NULL "
                     "RETURN count(f) AS n", frozenset())
_JOBS = Query("raw", "MATCH (j:ForgetJob {tenant: $tenant}) RETURN j.state AS state, j.done AS done, j.phase AS phase",
              frozenset())


class Interrupted(Exception):
    pass


def _rows(prefix: str, n: int) -> list[dict]:
    return [{"subject": f"{prefix} item {i}", "predicate": "stored_in", "object": f"{prefix} shelf {i % 7}",
             "valid_from": "2024-01-01", "statement": f"{prefix} item {i} is stored in shelf {i % 7}"} for i in range(n)]


def test_forget_tenant_runs_in_batches_resumes_from_its_persisted_cursor_and_leaves_other_tenants_alone(store):
    # given a tenant with 1,200 facts, a source and a summary, and another tenant with 30 facts
    facts = store.add_facts(_rows("Acme", 1200))
    store.add_source("document", "Acme inventory sheet, shelves one to seven", title="inventory")
    store.add_summary("shelves", derived_from=[facts[0].fact_id, facts[1].fact_id], summarizer=ListSummarizer())
    other = store.for_tenant(store.tenant + "_keep")
    kept = other.add_facts(_rows("Other", 30))
    seen = []

    def crash_after_first_batch(job):
        seen.append(job.done)
        if len(seen) == 1:
            raise Interrupted()

    # when a tenant-wide forget is interrupted after its first batch
    with pytest.raises(Interrupted):
        store.forget_tenant(reason="tenant closed", actor="ops", batch_size=500, progress=crash_after_first_batch)
    [job] = store._db.query(_JOBS, tenant=store.tenant)
    assert job["state"] == "running" and job["done"] == 500
    # and resumed
    progress = []
    [done] = store.forget_resume(progress=lambda j: progress.append(j.done))
    # then it completes from its cursor, with nothing left, verified; the other tenant is untouched
    assert done.state == "complete" and done.report.complete, done.report.residue
    assert progress[0] == 1000 and done.done >= 1200
    assert store._db.query(_LEFT, tenant=store.tenant)[0]["n"] == 0
    assert list(store.facts("Acme item 3")) == []
    assert len(other.facts(predicate="stored_in")) == 30 and {f.fact_id for f in other.facts()} == {k.fact_id for k in kept}
    # and calling it again finds nothing left to do
    again = store.forget_tenant(reason="tenant closed", actor="ops")
    assert again.report.complete


def test_forget_subject_forgets_the_entity_and_every_fact_naming_it_in_batches(store):
    # given a person named by 25 facts and a fact about someone else
    for i in range(25):
        store.add_fact("Dana Ray", "visited", f"Site {i}", valid_from="2024-01-01")
    keep = store.add_fact("Site 3", "located_in", "Oslo", valid_from="2024-01-01")
    # when the subject is forgotten in batches of 10
    moves = []
    job = store.forget_subject("Dana Ray", reason="erasure request", actor="dpo", batch_size=10,
                               progress=lambda j: moves.append(j.done))
    # then the job ran in batches and completed with nothing left; the other fact is intact
    assert moves[:3] == [10, 20, 25] and job.state == "complete" and job.report.complete, job.report.residue
    with pytest.raises(NotFound):  # the name itself is gone
        store.relations("Dana Ray")
    assert [f.fact_id for f in store.facts("Site 3")] == [keep.fact_id]
