"""The second layer after the quote gate: extraction runs the configured verifier on each candidate it commits, so a
person sees the verdict (or the candidate in the review queue) before admitting it; without a verifier, nothing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from credo.schema.errors import UpstreamFailed
from credo.schema.provenance import Candidate
from credo.schema.verify import Excerpt
from credo.services.adapters.extractors import ScriptedExtractor
from credo.services.verify.review import ReviewQueue
from credo.services.verify.rules import RuleVerifier
from credo.store import Store

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=timezone.utc)
OVERREACH = Candidate(statement="Never migrate the orders table", subject="orders table", predicate="migration_policy",
                      object="never migrate", quote="migrate the orders table", source_index=0)
FAITHFUL = Candidate(statement="Bob owns billing", subject="Bob", predicate="owns", object="billing",
                     quote="Bob owns billing", source_index=1)


def session(store: Store) -> None:
    store.ingest_messages("c", [
        {"index": i, "role": "user", "origin": "human_input", "author": "alice", "text": t,
         "at": T0 + timedelta(minutes=i)}
        for i, t in enumerate(["Don't migrate the orders table while API v1 reads it.", "Bob owns billing."])])


def with_verifier(store: Store, verifier) -> Store:
    return Store(store._db, tenant=store.tenant, embedder=None, _clock=store._ctx.clock, _owns_db=False,
                 verifier=verifier)


def test_extracted_candidates_carry_the_rule_verifiers_verdict_and_stay_candidates(store):
    judged = with_verifier(store, RuleVerifier())
    session(judged)
    result = judged.extract("c", ScriptedExtractor([[OVERREACH, FAITHFUL]]))
    over, fine = result.facts
    assert store.why(over.fact_id).verified_by.overreach_kind == "condition_dropped"
    assert store.why(fine.fact_id).verified_by.verdict == "supported"
    # the verdict admits nothing: both stay candidates until a person or a named policy admits them
    assert [store.why(f.fact_id).fact.state for f in result.facts] == ["candidate", "candidate"]


def test_with_the_review_queue_each_candidate_waits_for_a_person(store):
    queued = with_verifier(store, ReviewQueue())
    session(queued)
    result = queued.extract("c", ScriptedExtractor([[OVERREACH, FAITHFUL]]))
    assert [i.fact_id for i in queued.review_queue()] == [f.fact_id for f in result.facts]


def test_without_a_verifier_extraction_records_no_verdict(store):
    session(store)
    result = store.extract("c", ScriptedExtractor([[OVERREACH]]))
    assert store.why(result.facts[0].fact_id).verification == "not verified"


class Failing:
    name = "llm"

    def verify(self, statement: str, excerpt: Excerpt):
        raise UpstreamFailed("LLM endpoint http://127.0.0.1:9/v1/chat/completions failed: refused")


def test_a_verifier_that_fails_leaves_the_extraction_committed_and_the_candidate_not_verified(store):
    failing = with_verifier(store, Failing())
    session(failing)
    result = failing.extract("c", ScriptedExtractor([[OVERREACH]]))
    assert store.why(result.facts[0].fact_id).verification == "not verified"
    assert store.why(result.facts[0].fact_id).fact.state == "candidate"
