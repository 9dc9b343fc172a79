"""Issue 24 §6: forgetting misses nothing it reports. A fact, its message and its subject forgotten and purged leave
none of their words anywhere in the tenant (read receipts' questions, the object entity named only by the forgotten
fact, the forget's own probe included), and `verify_forgotten` says `complete` only then; a purged id answers with its
tombstone, not 404."""

from __future__ import annotations

import json
import os
from datetime import timedelta

import pytest

from credo.cypher import Query
from credo.services.core.crypto import cipher_for
from credo.services.adapters.key_stores import FileKeyStore
from credo.store import Store
from tests.services.forget.test_forget import T0, HashEmbedder

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

WORDS = ("quokkaberry", "diabetesvex")  # the distinctive words of the scenario, matched case-insensitively
SAID = "Maria Quokkaberry was diagnosed with Diabetesvex last spring."
QUOTE = "Maria Quokkaberry was diagnosed with Diabetesvex"
QUESTION = "What do we know about Maria Quokkaberry?"

# every property of every node of the tenant, of every node next to one, and of every relationship touching one
_NODES = Query("raw", "MATCH (n) WHERE n.tenant = $tenant OPTIONAL MATCH (n)-[r]-(m) "
                      "RETURN labels(n) AS labels, properties(n) AS props, type(r) AS rel, properties(r) AS rel_props, "
                      "labels(m) AS m_labels, properties(m) AS m_props", frozenset())


def raw_scan(store: Store, words: tuple[str, ...] = WORDS) -> list[str]:
    """Every node or relationship property (any label, probes included) holding one of the words, as 'Label.key'."""
    found = set()
    for row in store._db.query(_NODES, tenant=store.tenant):
        for labels, props in ((row["labels"], row["props"]), ([row["rel"]], row["rel_props"]),
                              (row["m_labels"], row["m_props"])):
            for key, value in (props or {}).items():
                text = json.dumps(value, default=str).lower()
                if any(w in text for w in words):
                    found.add(f"{':'.join(sorted(labels or ['?']))}.{key}")
    return sorted(found)


@pytest.fixture
def keys(tmp_path) -> FileKeyStore:
    return FileKeyStore(tmp_path / "keys")


@pytest.fixture
def kstore(neo4j_db, tenant, clock, keys) -> Store:
    """A store with embeddings and a key store (as `credo.connect` builds it); crypto-erasure on under
    CREDO_TEST_CRYPTO=on."""
    cipher = cipher_for("on", keys, tenant) if os.environ.get("CREDO_TEST_CRYPTO") == "on" else None
    return Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False, cipher=cipher,
                 keys=keys)


def another_handle(store: Store) -> Store:
    """A second handle on the same tenant and key store (each REST request is one): it never saw the content."""
    return Store(store._db, tenant=store.tenant, embedder=HashEmbedder(), _owns_db=False, cipher=store._ctx.cipher,
                 keys=store._keys)


def diagnosis(store: Store, said: str = SAID, quote: str = QUOTE, subject: str = "Maria Quokkaberry",
              disease: str = "Diabetesvex"):
    """A nurse's message `said` and the fact remembered from its `quote`: (message, fact)."""
    [message] = store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "nurse",
                                              "text": said, "at": T0}])
    fact = store.remember("s1", quote, quote, subject=subject, predicate="diagnosed_with", object=disease)
    return message, fact


def test_a_fact_its_message_and_its_subject_forgotten_and_purged_leave_none_of_their_words_and_verify_says_complete(
        kstore):
    # given a message naming an unusual person and condition, a fact remembered from it, and reads for a task that
    # record the question text in read receipts
    message, fact = diagnosis(kstore)
    kstore.context(QUESTION, task="intake-review")
    kstore.search("Diabetesvex", task="intake-review")
    receipts = kstore.served_to("intake-review")
    assert any("Quokkaberry" in (r.query or "") for r in receipts)
    assert fact.version_id in {v.version_id for r in receipts for v in r.versions}
    assert raw_scan(kstore)  # the scan sees the words before forgetting
    # when the fact, its message and its subject entity are forgotten, then purged
    ids = [fact.fact_id, message.source_id, fact.subject_id]
    for ident in ids:
        kstore.forget(ident, reason="erasure request", actor="dpo")
    for ident in ids:
        kstore.purge(ident)
    # then a raw scan of every node and relationship property of the tenant finds none of the words
    assert raw_scan(kstore) == []
    # and verify_forgotten says complete for each id, from this handle and from another, with its tombstone
    for handle in (kstore, another_handle(kstore)):
        for ident in ids:
            report = handle.verify_forgotten(ident)
            assert report.complete, (ident, report.residue)
            assert report.tombstone is not None and report.tombstone.reason == "erasure request", ident
            assert report.purged_at is not None, ident
    # and the receipts still say what the task was served, as tombstones, without the question
    for r in kstore.served_to("intake-review"):
        assert not any(w in r.model_dump_json().lower() for w in WORDS)


def test_the_report_is_complete_only_when_the_raw_scan_is_clean_at_every_step(kstore):
    # given the scenario's fact and receipts
    message, fact = diagnosis(kstore)
    kstore.context(QUESTION, task="intake-review")
    # when only the fact is forgotten
    report = kstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report
    # then its report is complete, and the words the scan still finds are only in what it names as left by design
    # (the message it came from, which was not forgotten)
    left = raw_scan(kstore)
    assert report.complete, report.residue
    assert left or kstore._ctx.cipher is not None, "the message keeps its words (sealed in crypto-erasure mode)"
    assert all(place.startswith("Source.") for place in left), left
    assert any(k.place == "source" and k.ref == message.source_id for k in report.left_by_design), report.left_by_design
    # and the receipt's question and the object entity named only by the forgotten fact are gone already
    assert not any("ReadReceipt" in p or "Entity" in p or "Alias" in p for p in left), left
    assert set(report.checked) >= {"read receipts", "entities and aliases", "sources", "summaries", "probe",
                                   "full-text index", "vector index", "ledger"}, report.checked


def test_the_object_entity_named_only_by_the_forgotten_fact_is_no_longer_found_by_search_or_name(kstore):
    # given the scenario's fact, and the object entity found by search
    _message, fact = diagnosis(kstore)
    assert any(h.kind == "entity" for h in kstore.search("Diabetesvex").hits)
    # when the fact is forgotten
    result = kstore.forget(fact.fact_id, reason="erasure request", actor="dpo")
    # then both entities it alone named are forgotten with it, and search finds neither by its old name
    assert {fact.subject_id, fact.object.entity_id} <= set(result.forgotten)
    assert not [h for h in kstore.search("Diabetesvex").hits if h.kind == "entity"]
    assert not [h for h in kstore.search("Maria Quokkaberry").hits if h.kind == "entity"]
    assert kstore.verify_forgotten(fact.object.entity_id).complete


# the rule for the entities a forgotten fact names, one row per case: (what else names the object entity, whether it
# is forgotten with the fact)
ENTITY_RULE = [
    ("nothing else", True),
    ("another remembered fact", False),
    ("another fact, forgotten before", True),
    ("a remembered fact about an entity merged into it", False),
    ("a remembered fact about the entity it was merged into", False),
]


@pytest.mark.parametrize("named_by, forgotten", ENTITY_RULE, ids=[r[0] for r in ENTITY_RULE])
def test_an_entity_is_forgotten_with_a_fact_only_when_no_remembered_fact_names_it(kstore, named_by, forgotten):
    # given a fact naming an object entity, and the case's other naming
    fact = kstore.add_fact("Maria Quokkaberry", "diagnosed_with", "Diabetesvex", valid_from="2024-01-01")
    if named_by == "another remembered fact":
        kstore.add_fact("Diabetesvex", "treated_by", "Insulin", valid_from="2024-01-01")
    if named_by == "another fact, forgotten before":
        before = kstore.add_fact("Diabetesvex", "treated_by", "Insulin", valid_from="2024-01-01")
        kstore.forget(before.fact_id, reason="erasure", actor="dpo")
    if named_by == "a remembered fact about an entity merged into it":
        kstore.add_fact("DVX syndrome", "treated_by", "Insulin", valid_from="2024-01-01")
        kstore.merge_entities("Diabetesvex", "DVX syndrome")
    if named_by == "a remembered fact about the entity it was merged into":
        kstore.add_fact("DVX syndrome", "treated_by", "Insulin", valid_from="2024-01-01")
        kstore.merge_entities("DVX syndrome", "Diabetesvex")
    # when the fact is forgotten
    result = kstore.forget(fact.fact_id, reason="erasure", actor="dpo")
    # then the object entity goes with it exactly when nothing remembered names it; otherwise the report names it
    # as left by design, and its name stays
    report = result.report
    assert report.complete, report.residue
    assert (fact.object.entity_id in result.forgotten) is forgotten
    kept = {k.ref for k in report.left_by_design if k.place == "entity"}
    assert (fact.object.entity_id in kept) is not forgotten, report.left_by_design
    assert bool(raw_scan(kstore, ("diabetesvex",))) is not forgotten


_PLANT = {
    "read receipt": Query("raw", "MATCH (r:ReadReceipt) WHERE r.tenant = $tenant SET r.query = $text", frozenset()),
    "entity and aliases": Query("raw", "MATCH (e:Entity {entity_id: $entity_id}) SET e.aliases = [$text]",
                                frozenset()),
    "probe": Query("raw", "MATCH (p:ForgetProbe) WHERE p.tenant = $tenant SET p.texts = [$text]", frozenset()),
    "summary": Query("raw", "MATCH (m:Summary) WHERE m.tenant = $tenant SET m.text = $text", frozenset()),
}


@pytest.mark.parametrize("place", sorted(_PLANT))
def test_a_copy_left_in_any_checked_place_makes_the_report_incomplete_and_names_the_place(kstore, place):
    # given the scenario's fact forgotten (complete), with a receipt, a summary and a stored probe in the tenant
    from credo.services.adapters.summarizers import ListSummarizer

    _message, fact = diagnosis(kstore)
    kstore.add_fact("Ward 7", "houses", "Maria Quokkaberry", valid_from="2024-01-01")
    kstore.add_summary("ward notes", derived_from=[fact.fact_id], summarizer=ListSummarizer())
    kstore.context(QUESTION, task="intake-review")
    assert kstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report.complete
    # when a copy of the words is found in the place afterwards (an old probe stored in clear, a restored name, ...)
    kstore._db.query(_PLANT[place], write=True, tenant=kstore.tenant, entity_id=fact.object.entity_id, text=QUOTE)
    # then verify_forgotten, from this handle and from another, is not complete and names that place
    for handle in (kstore, another_handle(kstore)):
        report = handle.verify_forgotten(fact.fact_id)
        assert not report.complete and place in {r.place for r in report.residue}, (place, report.residue)
    # and the entity another remembered fact names is listed as left by design, not as residue
    assert fact.subject_id in {k.ref for k in report.left_by_design if k.place == "entity"}
