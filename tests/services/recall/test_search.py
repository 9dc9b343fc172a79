"""Search timelines (issue 11 items 1-2): hybrid paths, filters before ranking, time travel, clearance, tenants."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput
from credo.services.adapters.embeddings import default_embedder
from credo.store import Store


@pytest.fixture
def estore(neo4j_db, tenant, clock) -> Store:
    """The test's store with the default embedder (the vector path is on)."""
    return Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)


def _texts(result) -> list[str]:
    return [h.text for h in result.hits]


def test_a_cross_wording_question_is_found_by_the_vector_path_and_not_the_lexical_one(estore):
    # given a preference and some unrelated facts, none sharing a word with the question
    estore.add_fact("Maria", "drinks", "Americano", statement="Maria takes an Americano, no sugar")
    estore.add_fact("Cafeteria", "serves", "soup", statement="The cafeteria serves soup on Fridays")
    estore.add_fact("Office", "located_in", "Berlin", statement="The office is located in Berlin")
    # when the agent asks in other words
    found = estore.search("something to keep me awake", kinds=["fact"])
    # then the vector path finds the coffee first and the lexical path did not find it at all
    top = found.hits[0]
    assert top.text == "Maria takes an Americano, no sugar"
    assert "vector" in top.paths and "lexical" not in top.paths


def test_an_exact_name_is_found_by_the_lexical_path_when_the_vector_path_ranks_it_low(estore):
    # given look-alike part codes the embedder cannot tell apart, and one fact about the exact code
    for code in ["QZX-4417", "XQZ-7144", "ZXQ-1447", "QXZ-4714", "XZQ-4174", "ZQY-4771"]:
        estore.add_fact(f"Part {code}", "ships_from", "Hamburg", statement=f"Part {code} is owned by the Hamburg depot")
    estore.add_fact("ZQX-4471", "owned_by", "Dana", statement="ZQX-4471 is owned by Dana")
    # when the question names the exact code
    found = estore.search("part ZQX-4471 owned by", kinds=["fact"], limit=5)
    hit = found.hits[0]
    # then it comes first: the lexical path (and the graph path, by the name) rank it first while the vector path
    # ranks a look-alike above it
    assert hit.text == "ZQX-4471 is owned by Dana"
    assert hit.paths["lexical"].rank == 1 and hit.paths["graph"].rank == 1
    assert hit.paths["vector"].rank > 1


def test_each_hit_says_which_paths_found_it_with_their_scores(estore):
    estore.add_fact("Acme account", "owned_by", "Alice", statement="Alice owns the Acme account")
    found = estore.search("who owns the Acme account?")
    fact_hit = next(h for h in found.hits if h.kind == "fact")
    assert set(fact_hit.paths) == {"lexical", "vector", "graph"}
    assert all(p.rank == 1 for p in fact_hit.paths.values()) and fact_hit.score > 0
    assert any(h.kind == "entity" and h.text == "Acme account" for h in found.hits)


def test_the_lexical_path_ranks_each_index_apart_as_their_scores_are_not_comparable(store):
    # given an entity named exactly as the question (a short field: a high score in its own index) and a fact that
    # says the same words in a long statement (a lower score in the facts' index)
    store.add_fact("Acme account", "owned_by", "Alice",
                   statement="Over the years several people in finance have said that Alice is the one who owns "
                             "the Acme account and pays its invoices every quarter")
    # when searching lexically for the name
    found = store.search("Acme account", kinds=["fact", "entity"])
    # then each is first in its own index's ranking: a Lucene score depends on its index's statistics (field
    # lengths, how many documents of every tenant hold a word), so one index's scores never outrank another's
    fact_hit = next(h for h in found.hits if h.kind == "fact")
    entity_hit = next(h for h in found.hits if h.kind == "entity" and h.text == "Acme account")
    assert fact_hit.paths["lexical"].rank == 1
    assert entity_hit.paths["lexical"].rank == 1


def test_a_search_in_the_past_returns_what_was_valid_then(store):
    # given Alice owned the account until June, then Bob
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01")
    # when searching at March and at July
    march = store.search("Acme account owned_by", valid_at="2024-03-01", kinds=["fact"])
    july = store.search("Acme account owned_by", valid_at="2024-07-01", kinds=["fact"])
    # then each answer holds only the owner of its time
    assert [h.fact.object_name for h in march.hits] == ["Alice"]
    assert [h.fact.object_name for h in july.hits] == ["Bob"]


def test_a_search_at_a_past_known_time_returns_what_was_believed_then(store, clock):
    clock.at("2024-02-01")
    fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    clock.at("2024-03-01")
    store.correct_fact(fact.fact_id, object="Carol")
    before = store.search("Acme account", known_at="2024-02-15", kinds=["fact"])
    now = store.search("Acme account", kinds=["fact"])
    assert [h.fact.object_name for h in before.hits] == ["Alice"]
    assert [h.fact.object_name for h in now.hits] == ["Carol"]


def test_a_filtered_out_version_never_displaces_a_visible_one_from_the_top_limit(store):
    # given many secret and retracted versions that match the query better than the one visible fact
    for i in range(30):
        store.add_fact(f"Vault {i}", "holds", "payments migration plan", sensitivity="secret",
                       statement=f"payments migration payments migration plan vault {i}")
    for i in range(10):
        gone = store.add_fact(f"Draft {i}", "about", "payments migration", statement=f"payments migration draft {i}")
        store.retract_fact(gone.fact_id, reason="wrong")
    store.add_fact("Team", "plans", "payments migration", statement="The team plans the payments migration")
    # when a caller cleared for internal asks with limit 1
    internal = store.for_tenant(store.tenant, clearance="internal")
    found = internal.search("payments migration", limit=1, kinds=["fact"])
    # then the visible fact has the slot
    assert _texts(found) == ["The team plans the payments migration"]


def test_clearance_orders_public_internal_confidential_secret(store):
    for level in ("public", "internal", "confidential", "secret", None):
        store.add_fact(f"Doc {level}", "mentions", "budget", sensitivity=level, statement=f"budget doc {level}")
    seen = {c: {h.fact.sensitivity for h in store.for_tenant(store.tenant, clearance=c).search(
        "budget doc", kinds=["fact"], limit=50).hits} for c in ("public", "internal", "confidential", "secret", "all")}
    assert seen["public"] == {"public"}
    assert seen["internal"] == {"public", "internal", None}
    assert seen["confidential"] == {"public", "internal", "confidential", None}
    assert seen["secret"] == seen["all"] == {"public", "internal", "confidential", "secret", None}


def test_a_search_never_serves_another_tenants_facts(store):
    other = store.for_tenant(store.tenant + "-other")
    other.add_fact("Acme account", "owned_by", "Mallory", statement="Mallory owns the Acme account")
    store.add_fact("Acme account", "owned_by", "Alice", statement="Alice owns the Acme account")
    found = store.search("Mallory owns the Acme account", limit=50)
    assert all(h.fact is None or h.fact.tenant == store.tenant for h in found.hits)
    assert "Mallory owns the Acme account" not in _texts(found)


def test_scope_kind_and_state_filters_apply_before_ranking(store):
    store.add_fact("Deploy", "runs_on", "Friday", scope={"env": "prod"}, statement="Deploys run on Friday in prod")
    store.add_fact("Deploy", "runs_on", "Monday", scope={"env": "dev"}, statement="Deploys run on Monday in dev",
                   kind="procedural")
    prod = store.search("deploys run", scope={"env": "prod"})
    assert _texts(prod) == ["Deploys run on Friday in prod"]
    procedural = store.search("deploys run", kinds=["procedural"])
    assert _texts(procedural) == ["Deploys run on Monday in dev"]


def test_a_search_refuses_an_empty_query_and_an_unknown_kind(store):
    with pytest.raises(InvalidInput) as empty:
        store.search("   ")
    assert empty.value.field == "query"
    with pytest.raises(InvalidInput) as kind:
        store.search("x", kinds=["gadget"])
    assert kind.value.field == "kinds"
