"""Issue 11 item 4 and the dedup acceptance: near-duplicate semantic facts join one canonical fact at write."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo import Store
from credo.services.facts.dedup_rules import DEFAULT_SOURCE_CONFIDENCE
from credo.services.adapters.embeddings import default_embedder
from tests.messages import messages

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
TWO_VOICES = 1 - (1 - DEFAULT_SOURCE_CONFIDENCE) ** 2  # noisy-OR of two independent sources stating no confidence


msg = messages(T0, "maria")


@pytest.fixture
def mstore(neo4j_db, tenant, clock) -> Store:
    """A store with the shipped all-MiniLM-L6-v2 embedder (offline)."""
    return Store(neo4j_db, tenant=tenant, embedder=default_embedder(), _clock=clock, _owns_db=False)


def say(store, session, index, text, author="maria"):
    store.ingest_messages(session, [msg(index, text, author=author)])


def test_the_same_preference_stated_twice_in_different_words_is_one_fact_with_two_sources(mstore):
    # given Maria's coffee preference, remembered from her words
    say(mstore, "s1", 0, "I take my coffee as an Americano with no sugar.")
    first = mstore.remember("s1", "I take my coffee as an Americano with no sugar",
                            "Maria takes her coffee as an Americano with no sugar", subject="Maria", predicate="coffee")
    # when she says it again later in other words
    say(mstore, "s1", 1, "An Americano, no sugar, is how I take my coffee, by the way.")
    second = mstore.remember("s1", "An Americano, no sugar, is how I take my coffee",
                             "An Americano, no sugar, is how Maria takes her coffee", subject="Maria",
                             predicate="coffee")
    # then it is one fact: the first statement is canonical, the second its alias, each with its own quote
    assert second.fact_id == first.fact_id
    held = mstore.facts("Maria", "coffee", include_undated=True)
    assert [f.fact_id for f in held] == [first.fact_id]
    fact = held[0]
    assert fact.statement == "Maria takes her coffee as an Americano with no sugar"
    assert fact.aliases == ("An Americano, no sugar, is how Maria takes her coffee",)
    quotes = sorted(s.quote for s in mstore.why(fact.fact_id).sources)
    assert quotes == ["An Americano, no sugar, is how I take my coffee", "I take my coffee as an Americano with no sugar"]
    # one person said it twice: one independent source, no corroboration, no conflict
    assert fact.independent_sources == 1 and fact.confidence is None
    assert mstore.conflicts() == []


def test_a_preference_stated_by_two_people_shows_two_independent_sources(mstore):
    # given Maria says what the team prefers
    say(mstore, "s1", 0, "The team prefers PostgreSQL for new services.")
    first = mstore.remember("s1", "The team prefers PostgreSQL for new services",
                            "The team prefers PostgreSQL for new services", subject="team", predicate="database")
    assert first.independent_sources == 1 and first.confidence is None
    # when Bob, in his own session, says the same in other words
    say(mstore, "s2", 0, "For new services the team would rather use Postgres.", author="bob")
    second = mstore.remember("s2", "For new services the team would rather use Postgres",
                             "For new services the team would rather use Postgres", subject="team",
                             predicate="database")
    # then one fact with two independent sources, and its confidence shows both (noisy-OR)
    assert second.fact_id == first.fact_id
    [fact] = mstore.facts("team", "database", include_undated=True)
    assert fact.independent_sources == 2
    assert fact.confidence == pytest.approx(TWO_VOICES)
    assert fact.evidence == "stated"
    assert {s.author for s in mstore.why(fact.fact_id).sources} == {"maria", "bob"}


def test_a_different_value_in_the_same_words_is_kept_as_a_conflict_not_merged(mstore):
    # given how Kate wants to be called
    say(mstore, "s1", 0, "Call me Kate, not Katherine.", author="kate")
    kept = mstore.remember("s1", "Call me Kate, not Katherine", "Call me Kate, not Katherine", subject="Kate",
                           predicate="called")
    # when someone says the opposite in nearly the same words (cosine 0.995 with MiniLM)
    say(mstore, "s2", 0, "Call me Katherine, not Kate.", author="kate")
    other = mstore.remember("s2", "Call me Katherine, not Kate", "Call me Katherine, not Kate", subject="Kate",
                            predicate="called")
    # then it is a second claim the conflict rule holds, not an alias of the first
    assert other.fact_id != kept.fact_id and other.state == "conflicted"
    assert mstore.facts("Kate", "called", include_undated=True)[0].aliases == ()


def test_a_paraphrase_joined_by_an_agent_neither_raises_nor_lowers_the_evidence_of_the_claim(mstore):
    # given a preference remembered from Maria's own words (stated)
    say(mstore, "s1", 0, "I prefer meetings in the morning.")
    stated = mstore.remember("s1", "I prefer meetings in the morning", "Maria prefers meetings in the morning",
                             subject="Maria", predicate="meetings")
    assert stated.evidence == "stated"
    # when an unvouched write states it in other words (no human quoted)
    joined = mstore.add_fact("Maria", "meetings", mstore_text("Mornings are Maria's preferred time for meetings"),
                             statement="Mornings are Maria's preferred time for meetings")
    # then a restatement is not a merge: Maria's words still state the whole claim, so it stays stated (DESIGN §3),
    # with both wordings; the agent's write added no evidence of its own
    assert joined.fact_id == stated.fact_id
    assert (joined.evidence, joined.epistemic) == ("stated", "confirmed")
    assert joined.aliases == ("Mornings are Maria's preferred time for meetings",)


def mstore_text(value):
    import credo

    return credo.text(value)


def test_add_facts_joins_paraphrases_within_one_batch(mstore):
    # when one batch states the same preference twice in other words, and a different one
    rows = [dict(subject="Bob", predicate="drink", object=mstore_text(s), statement=s)
            for s in ("Bob prefers tea with milk", "Bob likes his tea with a splash of milk", "Bob drinks black coffee")]
    mstore.define_predicate("drink", cardinality="multi")
    written = mstore.add_facts(rows)
    # then the first two are one fact, the third its own
    assert written[0].fact_id == written[1].fact_id != written[2].fact_id
    held = {f.statement: f for f in mstore.facts("Bob", "drink", include_undated=True)}
    assert set(held) == {"Bob prefers tea with milk", "Bob drinks black coffee"}
    assert held["Bob prefers tea with milk"].aliases == ("Bob likes his tea with a splash of milk",)


def test_without_an_embedder_only_the_exact_normalised_statement_joins(store):
    # given a store with no embedder, and a multi-valued preference
    store.define_predicate("drink", cardinality="multi")
    first = store.add_fact("Bob", "drink", mstore_text("Americano, no sugar"), statement="Americano, no sugar")
    # when the same words come again with other case and punctuation, and then a paraphrase
    same = store.add_fact("Bob", "drink", mstore_text("americano - no sugar!"), statement="americano - no sugar!")
    paraphrase = store.add_fact("Bob", "drink", mstore_text("An unsweetened Americano"),
                                statement="An unsweetened Americano")
    # then the normalised match joins as an alias; the paraphrase, which only an embedder could see, stays apart
    assert same.fact_id == first.fact_id and same.aliases == ("americano - no sugar!",)
    assert paraphrase.fact_id != first.fact_id
    assert len(store.facts("Bob", "drink", include_undated=True)) == 2


def test_a_relation_corroborated_by_an_independent_source_gains_confidence_and_counts_it(store):
    # given Maria says Alice owns the Acme account
    say(store, "s1", 0, "Alice owns the Acme account.")
    first = store.remember("s1", "Alice owns the Acme account", "Alice owns the Acme account",
                           subject="Acme account", predicate="owned_by", object="Alice", valid_from="2024-01-05")
    # when Maria says it again, then Bob says it in his own session
    say(store, "s1", 1, "Again: Alice owns the Acme account.")
    again = store.remember("s1", "Alice owns the Acme account", "Alice owns the Acme account",
                           subject="Acme account", predicate="owned_by", object="Alice", valid_from="2024-01-05")
    say(store, "s2", 0, "Alice owns the Acme account, I checked.", author="bob")
    bob = store.remember("s2", "Alice owns the Acme account", "Alice owns the Acme account",
                         subject="Acme account", predicate="owned_by", object="Alice", valid_from="2024-01-05")
    # then Maria's restatement was one voice (no gain); Bob's is a second independent source (noisy-OR)
    assert first.fact_id == again.fact_id == bob.fact_id
    assert (first.independent_sources, again.independent_sources, bob.independent_sources) == (1, 1, 2)
    assert again.confidence is None and bob.confidence == pytest.approx(TWO_VOICES)
    # and the relation's read model shows how many independent sources back it
    [relation] = store.relations("Alice", valid_at="2024-06-01")
    assert relation.fact.independent_sources == 2
    assert relation.fact.confidence == pytest.approx(TWO_VOICES)
