"""Issue 12 item 2: forget, purge and verify_forgotten on the real Neo4j (DESIGN.md §6-7)."""

from __future__ import annotations

import hashlib
import math
import random
import re
from datetime import datetime, timedelta, timezone

import pytest

from credo.cypher import Query
from credo.schema.errors import NotFound, TransitionRefused
from credo.services.adapters.summarizers import ListSummarizer
from credo.store import Store
from tests.messages import messages

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
SECRET = "Alice keeps the vault code 7431 under her desk"


class HashEmbedder:
    """Deterministic 384-dim unit vectors from a hash of the text (no model needed)."""

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            rng = random.Random(hashlib.sha256(text.encode()).digest())
            raw = [rng.uniform(-1.0, 1.0) for _ in range(384)]
            norm = math.sqrt(sum(x * x for x in raw))
            out.append([x / norm for x in raw])
        return out


@pytest.fixture
def estore(neo4j_db, tenant, clock) -> Store:
    return Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False)


_msg = messages(T0, "maria")


# every node of the tenant holding the text, except the forget's own probe (held until purge, then deleted: see
# tests/services/forget/test_forget_probe.py)
_CONTENT = Query("raw", "MATCH (n {tenant: $tenant}) WHERE NOT n:ForgetProbe WITH n, [k IN keys(n) WHERE n[k] IS :: STRING "
                 "AND n[k] CONTAINS $text | n[k]] AS values WHERE values <> [] "
                 "RETURN labels(n) AS labels, n.version_id AS version_id, values", frozenset())


def _holding(store: Store, text: str) -> list[dict]:
    """Nodes holding `text` as a word in a string property (a random id or hash that happens to contain its digits
    does not count: it once failed a run on an audit event's hash)."""
    word = re.compile(rf"(?<![0-9A-Za-z+/_-]){re.escape(text)}(?![0-9A-Za-z+/=_-])")
    rows = store._db.query(_CONTENT, tenant=store.tenant, text=text)
    return [{"labels": r["labels"], "version_id": r["version_id"]} for r in rows
            if any(word.search(v) for v in r["values"])]


def says_code(text: str) -> bool:
    """Whether `text` holds the secret's code as a word (not as digits inside a random id, hash or ciphertext)."""
    return re.search(r"(?<![0-9A-Za-z+/_-])7431(?![0-9A-Za-z+/=_-])", text) is not None


def test_forgetting_a_fact_removes_its_content_from_every_version_summary_and_index_and_verify_is_complete(estore, clock):
    # given a fact with three versions, an embedding, two summaries derived from it
    f = estore.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    estore.correct_fact(f.fact_id, statement=SECRET + " (confirmed)")
    estore.correct_fact(f.fact_id, statement=SECRET + " (re-confirmed)")
    other = estore.add_fact("Vault", "located_in", "Basement", valid_from="2024-01-01")
    s1 = estore.add_summary("vault notes", derived_from=[f.fact_id, other.fact_id], summarizer=ListSummarizer())
    s2 = estore.add_summary("security digest", derived_from=[f.fact_id], summarizer=ListSummarizer())
    assert SECRET in s1.text and len(estore.history(f.fact_id)) == 3
    # when it is forgotten
    result = estore.forget(f.fact_id, reason="subject asked", actor="dpo@acme")
    # then the residue report is complete, nothing in the tenant holds the text, and the summaries were rebuilt
    assert result.report.complete, result.report.residue
    assert result.report.residue == []
    assert {"full-text", "vector"} <= set(result.report.probes)
    assert _holding(estore, "7431") == []
    rebuilt = estore.summary(s1.summary_id)
    assert rebuilt.state == "active" and "7431" not in rebuilt.text and "Basement" in rebuilt.text
    assert "7431" not in estore.summary(s2.summary_id).text
    # and the report names what the store cannot erase by itself
    places = {u.place for u in result.report.outside_store}
    assert {"transaction logs", "backups"} <= places
    assert result.report.crypto_erased is False and result.report.crypto_reason
    assert estore.verify_forgotten(f.fact_id).complete


def test_reads_at_an_earlier_known_time_after_forgetting_show_a_tombstone_never_the_content(estore, clock):
    # given a fact believed at `before`, about entities a later remembered fact names too (an entity named only by
    # forgotten facts is forgotten with them: tests/services/forget/test_forget_residue.py)
    f = estore.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    before = clock.at(clock() + timedelta(seconds=1))
    estore.add_fact("Alice", "guards", "Vault", valid_from="2024-01-01")
    # when it is forgotten
    estore.forget(f.fact_id, reason="erasure request", actor="dpo@acme")
    # then reads at the earlier known time show a tombstone, never the content
    old = estore.facts("Vault", known_at=before)
    assert len(old) == 1 and old[0].tombstone is not None
    assert old[0].statement.startswith("forgotten on ")
    assert f"by {estore.principal.actor} (on behalf of dpo@acme) for erasure request" in old[0].statement
    assert not says_code(old[0].model_dump_json())
    history = estore.history(f.fact_id)
    assert history and all(v.tombstone is not None and not says_code(v.model_dump_json()) for v in history)
    tree = estore.why(f.fact_id, known_at=before)
    assert not says_code(tree.model_dump_json()) and "forgotten on" in tree.text()
    rel = estore.relations("Alice", known_at=before)
    assert all(r.fact.tombstone is not None for r in rel) and not says_code(str([r.model_dump() for r in rel]))
    # and nothing is served now
    assert list(estore.facts("Vault")) == []


def test_purge_deletes_a_forgotten_fact_and_forgotten_or_deleted_never_come_back(store):
    # given a forgotten fact
    f = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    with pytest.raises(TransitionRefused):
        store.purge(f.fact_id)  # active -> deleted is not in the table
    store.forget(f.fact_id, reason="erasure", actor="dpo")
    # when something tries to bring it back, it is refused
    with pytest.raises(TransitionRefused):
        store.correct_fact(f.fact_id, statement="back again")
    with pytest.raises(TransitionRefused):
        store.forget(f.fact_id, reason="again", actor="dpo")
    # when it is purged, its nodes are gone and verify stays complete
    report = store.purge(f.fact_id)
    assert report.complete
    with pytest.raises(NotFound):
        store.history(f.fact_id)
    assert store.verify_forgotten(f.fact_id).complete


def test_forgetting_a_message_reaches_the_fact_it_alone_evidenced_and_a_document_backed_fact_keeps_its_document(store):
    # given two facts remembered from one message, one also backed by a document
    [m] = store.ingest_messages("s1", [_msg(0, "Bob moved to Lisbon. Bob works at Initech.")])
    only = store.remember("s1", "Bob moved to Lisbon", "Bob lives in Lisbon", subject="Bob", predicate="lives_in",
                          object="Lisbon")
    backed = store.remember("s1", "Bob works at Initech", "Bob works at Initech", subject="Bob",
                            predicate="works_at", object="Initech")
    doc = store.add_source("document", "Staff list: Bob, Initech, engineering", title="staff list")
    store.cite(backed.fact_id, doc.source_id)
    # when the message is forgotten
    result = store.forget(m.source_id, reason="message withdrawn", actor="maria")
    # then the fact it alone evidenced is forgotten too; the other keeps the document and loses the message
    assert only.fact_id in result.forgotten and backed.fact_id not in result.forgotten
    assert result.report.complete, result.report.residue
    assert [f.fact_id for f in store.facts("Bob", "works_at")] == [backed.fact_id]
    assert list(store.facts("Bob", "lives_in")) == []
    sources = store.why(backed.fact_id).sources
    assert [s.source_id for s in sources] == [doc.source_id]
    assert _holding(store, "Lisbon") == [] or all("Entity" in r["labels"] for r in _holding(store, "Lisbon"))
    assert _holding(store, "moved to") == []


def test_forgetting_a_premise_cascades_its_dependents_stale(store):
    # given a rule resting on a premise
    premise = store.add_fact("API v1", "reads_column", "X", valid_from="2024-01-01")
    rule = store.add_fact("column X", "must_be", "kept", valid_from="2024-01-01", depends_on=[premise.fact_id])
    # when the premise is forgotten
    result = store.forget(premise.fact_id, reason="erasure", actor="dpo")
    # then the rule goes stale, like after any belief change
    assert rule.fact_id in result.cascade.flagged_ids
    assert [s.id for s in store.stale() if s.kind == "fact"] == [rule.fact_id]


def test_forgetting_an_entity_forgets_the_facts_about_it_and_its_names(store):
    # given an entity with an alias, facts about it as subject and as object, and an unrelated fact
    store.add_fact("Carol Smith", "works_at", "Initech", valid_from="2024-01-01")
    store.add_fact("Initech", "managed_by", "Carol Smith", valid_from="2024-01-01")
    store.add_fact("C. Smith", "lives_in", "Oslo", valid_from="2024-01-01")
    store.merge_entities("Carol Smith", "C. Smith")
    keep = store.add_fact("Initech", "located_in", "Oslo", valid_from="2024-01-01")
    carol = store.relations("Carol Smith")[0].fact.subject_id
    # when the entity is forgotten
    result = store.forget(carol, reason="right to erasure", actor="dpo")
    # then every fact about her is forgotten, her names are gone, and the unrelated fact is intact
    assert result.report.complete, result.report.residue
    assert len(result.forgotten) == 4  # three facts and the entity
    assert _holding(store, "Carol") == [] and _holding(store, "Smith") == []
    assert [f.fact_id for f in store.facts("Initech", "located_in")] == [keep.fact_id]


def test_forgetting_a_summary_removes_its_text_from_every_version(store):
    # given a summary
    f = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    s = store.add_summary("vault digest", derived_from=[f.fact_id], summarizer=ListSummarizer())
    # when it is forgotten
    result = store.forget(s.summary_id, reason="obsolete digest", actor="ops")
    # then its text is gone and the fact it came from stays
    assert result.report.complete, result.report.residue
    sealed = store._ctx.cipher is not None  # CREDO_TEST_CRYPTO=on: the fact holds its words sealed
    assert [sorted(h["labels"]) for h in _holding(store, "7431")] == ([] if sealed else [["Fact"]])
    assert store.facts("Vault")[0].fact_id == f.fact_id
    assert store.summaries() == []


def test_another_tenants_id_answers_not_found(store):
    f = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01")
    other = store.for_tenant(store.tenant + "_other")
    with pytest.raises(NotFound):
        other.forget(f.fact_id, reason="x", actor="y")
    with pytest.raises(NotFound):
        other.verify_forgotten(f.fact_id)
    assert store.facts("Vault")


def test_forgetting_an_extracted_fact_removes_its_text_from_the_extraction_episode(store):
    from credo.schema.provenance import Candidate, Proposal
    from credo.services.adapters.extractors import ScriptedExtractor

    # given a fact extracted from a message, with an episode summary quoting it
    store.ingest_messages("s9", [_msg(0, "Erin's badge number is 55-1234, keep it private.")])
    said = "Erin's badge number is 55-1234"
    candidate = Candidate(statement=said, subject="Erin", predicate="badge_number", object="55-1234",
                          quote=said, source_index=0)
    result = store.extract("s9", ScriptedExtractor([Proposal(candidates=[candidate], episode=f"Noted: {said}.")]))
    [fact] = result.facts
    # when the fact is forgotten
    report = store.forget(fact.fact_id, reason="erasure", actor="dpo").report
    # then neither the episode nor any version holds its text (the message and the object entity stay: they were not
    # asked to be forgotten; forget the message or the entity for that)
    assert report.complete, report.residue
    holders = [h["labels"] for h in _holding(store, "55-1234")]
    assert (["Source"] in holders or store._ctx.cipher is not None), holders  # the message's text, sealed or not
    assert not [h for h in holders if "Summary" in h or "Fact" in h], holders


def test_forgetting_a_premise_removes_its_statement_from_the_stale_causes_of_earlier_cascades(store):
    # given a rule that went stale when its premise was retracted (the cause line quotes the premise)
    premise = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01", statement=SECRET)
    rule = store.add_fact("vault rule", "must_be", "kept", valid_from="2024-01-01", depends_on=[premise.fact_id])
    store.retract_fact(premise.fact_id, reason="it was wrong")
    assert any(SECRET in (i.cause or "") for i in store.stale() if i.id == rule.fact_id)
    # when the premise is forgotten
    result = store.forget(premise.fact_id, reason="erasure", actor="dpo")
    # then no stale cause quotes it any more, the verification says so, and the rule still says why it is stale
    assert result.report.complete, result.report.residue
    [item] = [i for i in store.stale() if i.id == rule.fact_id]
    assert SECRET not in (item.cause or "") and item.cause
    assert not any(SECRET in (f.stale_cause or "") for f in store.history(rule.fact_id))
