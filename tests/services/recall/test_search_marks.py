"""Search tells what is not established knowledge on each hit (hypothesis, candidate, undated, disputed), and its
vector path has a similarity floor, so "nothing found" is an answer (issue 24 §8: a one-word query returned 5
unrelated facts at Neo4j scores 0.55-0.58)."""

from __future__ import annotations

import pytest

from credo.services.recall import search_rules as rules
from credo.services.adapters.embeddings import default_embedder
from credo.store import Store

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

FLAGS = ("hypothesis", "candidate", "undated", "disputed")
# facts of the ablation's plain and semantic cases (bench/ablation_cases.py), none about fruit
FACTS = [("Ingest pipeline", "runs_on", "Kubernetes", "The ingest pipeline runs on Kubernetes"),
         ("Atlas dashboard", "uses", "Grafana", "The Atlas dashboard uses Grafana"),
         ("Kofi Mensah", "based_in", "Accra", "Kofi Mensah is based in Accra"),
         ("Mei Lin", "based_in", "Tainan", "Mei Lin is based in Tainan"),
         ("Maria", "coffee", "Americano", "Maria drinks an Americano, no sugar"),
         ("Tom", "allergy", "peanuts", "Tom is allergic to peanuts"),
         ("Cafeteria", "menu", "vegetarian Mondays", "The cafeteria serves vegetarian food on Mondays"),
         ("Payroll export", "scheduled_for", "Friday 18:00", "The payroll export is scheduled for Friday 18:00")]


@pytest.fixture
def estore(neo4j_db, tenant, clock) -> Store:
    """The test's store with the shipped embedder (the vector path is on)."""
    return Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)


def given_facts(store: Store) -> None:
    store.add_facts([{"subject": s, "predicate": p, "object": o, "object_is_entity": False, "statement": st,
                      "valid_from": "2024-01-01"} for s, p, o, st in FACTS])


def marks(hit) -> tuple[str, ...]:
    return tuple(f for f in FLAGS if getattr(hit, f))


def test_each_hit_says_whether_it_is_a_hypothesis_a_candidate_undated_or_disputed(store, clock):
    # given an established value under dispute, an undated fact, a hedged one and a candidate, all about the Ledger
    clock.at("2024-05-01T09:00:00+00:00")
    store.add_fact("Ledger", "owned_by", "Alice", valid_from="2024-01-01", statement="The Ledger is owned by Alice")
    store.add_fact("Ledger", "owned_by", "Bob", valid_from="2024-03-01", statement="The Ledger is owned by Bob")
    store.add_fact("Ledger", "hosted_in", "Oslo", object_is_entity=False, statement="The Ledger is hosted in Oslo")
    store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "ann",
                                  "text": "I guess the Ledger closes on Fridays.", "at": "2024-05-01T08:00:00Z"}])
    store.remember("s1", "the Ledger closes on Fridays", "The Ledger closes on Fridays", valid_from="2024-04-01")
    audited = store.add_fact("Ledger", "audited_by", "KPMG", valid_from="2024-01-01",
                             statement="The Ledger is audited by KPMG")
    store.quarantine(fact_id=audited.fact_id, reason="suspicious source", actor="ops")
    store.release(fact_id=audited.fact_id, reason="checked", actor="ops")  # back as a candidate
    # when it is searched with candidates served too
    found = store.search("Ledger", kinds=["fact"], states=["active", "reinforced", "candidate"])
    # then each fact hit carries its own marks, and established knowledge carries none
    by_text = {h.text: marks(h) for h in found.hits}
    assert by_text == {
        "The Ledger is owned by Alice": ("disputed",),
        "The Ledger is hosted in Oslo": ("undated",),
        "The Ledger closes on Fridays": ("hypothesis",),
        "The Ledger is audited by KPMG": ("candidate",),
    }
    # and the marks travel in the JSON every surface answers, entities included (with none)
    entity = store.search("Ledger", kinds=["entity"]).hits[0].model_dump(mode="json")
    assert {f: entity[f] for f in FLAGS} == dict.fromkeys(FLAGS, False)
    hedged = next(h for h in found.hits if h.hypothesis).model_dump(mode="json")
    assert {f: hedged[f] for f in FLAGS} == {"hypothesis": True, "candidate": False, "undated": False,
                                              "disputed": False}


@pytest.mark.parametrize("query", ["banana", "saxophone", "weather", "lorem"])
def test_an_unrelated_one_word_query_finds_nothing_by_meaning(estore, query):
    given_facts(estore)
    found = estore.search(query, kinds=["fact"])
    assert [h.text for h in found.hits if "vector" in h.paths] == []


def test_one_word_naming_what_a_fact_is_about_still_finds_it_by_meaning(estore):
    given_facts(estore)
    for word, statement in [("Kubernetes", "The ingest pipeline runs on Kubernetes"),
                            ("peanuts", "Tom is allergic to peanuts"), ("cafeteria", "The cafeteria serves vegetarian "
                                                                                     "food on Mondays"),
                            ("coffee", "Maria drinks an Americano, no sugar")]:
        hits = estore.search(word, kinds=["fact"]).hits
        assert statement in [h.text for h in hits if "vector" in h.paths], word


def test_a_question_in_other_words_is_still_found_above_its_floor(estore):
    given_facts(estore)
    top = estore.search("something to keep me awake", kinds=["fact"]).hits[0]
    assert top.text == "Maria drinks an Americano, no sugar" and "vector" in top.paths
    assert rules.vector_floor("something to keep me awake") < 2 * top.paths["vector"].score - 1  # raw cosine


def test_the_filtered_vector_index_applies_the_floor_to_what_it_finds(estore):
    given_facts(estore)
    assert [h.text for h in estore.search("banana", kinds=["fact"]).hits if "vector" in h.paths] == []
    hits = estore.search("Kubernetes", kinds=["fact"]).hits
    assert "The ingest pipeline runs on Kubernetes" in [h.text for h in hits if "vector" in h.paths]


@pytest.mark.parametrize("query,floor", [("banana", 0.30), ("Kubernetes!", 0.30), ("banana bread", 0.25),
                                         ("ingest-pipeline", 0.25), ("recipe for banana bread", 0.10),
                                         ("!!!", 0.10)])
def test_the_floor_depends_on_how_many_words_the_query_has(query, floor):
    assert rules.vector_floor(query) == floor
