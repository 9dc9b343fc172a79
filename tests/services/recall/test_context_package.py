"""Issue 11 item 3 and its acceptance: the context package says what is current, what is history and why it stopped
applying, and what is still unknown; a superseded value, a stale rule, a candidate or a hypothesis is never current."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.errors import InvalidInput
from credo.schema.provenance import Candidate
from credo.services.adapters.extractors import ScriptedExtractor

T0 = datetime(2024, 1, 5, 9, 0, tzinfo=timezone.utc)


def statements(items):
    return [i.statement for i in items]


def by_statement(items, text):
    return next(i for i in items if i.statement == text)


def test_a_superseded_value_is_never_current_and_is_history_with_its_end_and_reason(store, clock):
    # given Alice owned the Acme account, and Bob took it over on 2024-06-01
    clock.at("2024-01-05")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01",
                           statement="Alice owns the Acme account")
    clock.at("2024-06-02")
    store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01", statement="Bob owns the Acme account")
    # when the package for the account is read after the hand-over
    package = store.context("Acme account", valid_at="2024-07-01")
    # then Bob is current, Alice is not, and Alice is history: ended by succession on 2024-06-01, Bob supersedes her
    assert statements(package.current) == ["Bob owns the Acme account"]
    assert "Alice owns the Acme account" not in statements(package.current) + statements(package.open)
    old = by_statement(package.historical, "Alice owns the Acme account")
    assert old.end_kind == "succession" and old.ended_at == datetime(2024, 6, 1, tzinfo=timezone.utc)
    assert old.superseded_by == "Bob owns the Acme account" and "succession" in old.reason
    # and before the hand-over Alice was the current owner, with no history yet
    before = store.context("Acme account", valid_at="2024-03-01")
    assert statements(before.current) == ["Alice owns the Acme account"] and before.historical == []


def test_a_corrected_value_is_history_with_the_correction_and_the_new_value(store, clock):
    # given Alice's city was recorded wrongly and then corrected
    clock.at("2024-01-05")
    city = store.add_fact("Alice", "based_in", "Lisbon", valid_from="2023-01-01", statement="Alice is based in Lisbon")
    clock.at("2024-02-01")
    store.correct_fact(city.fact_id, object="Porto", statement="Alice is based in Porto")
    # when the package for Alice is read
    package = store.context("Alice")
    # then Porto is current and Lisbon is history: ended by a correction, superseded by Porto
    assert statements(package.current) == ["Alice is based in Porto"]
    wrong = by_statement(package.historical, "Alice is based in Lisbon")
    assert wrong.end_kind == "correction" and wrong.superseded_by == "Alice is based in Porto"
    assert wrong.ended_at is not None and wrong.reason
    # and as known before the correction, Lisbon was current and nothing was history
    earlier = store.context("Alice", known_at="2024-01-20")
    assert statements(earlier.current) == ["Alice is based in Lisbon"] and earlier.historical == []


def test_a_stale_rule_appears_only_under_open_with_its_cause(store, clock):
    # given a rule resting on a premise, and the premise retracted
    clock.at("2025-01-05")
    premise = store.add_fact("API v1 clients", "read", "column customer_legacy", valid_from="2024-01-01",
                             statement="API v1 clients still read column customer_legacy")
    rule = store.add_fact("column customer_legacy", "must_be", "kept", valid_from="2024-01-01",
                          statement="Keep column customer_legacy", depends_on=[premise.fact_id])
    clock.at("2025-02-01")
    store.retract_fact(premise.fact_id, reason="the v1 clients were migrated in 2024")
    # when the package for the column is read
    package = store.context("column customer_legacy")
    # then the rule is neither current nor history: it is open, stale, with the premise change as its cause
    assert "Keep column customer_legacy" not in statements(package.current) + statements(package.historical)
    stale = by_statement(package.open, "Keep column customer_legacy")
    assert stale.open_kind == "stale" and premise.fact_id in stale.cause and "re-verification" in stale.unknown
    assert stale.fact.fact_id == rule.fact_id


@pytest.mark.usefixtures("semantic_logged")  # reads, not consent: remember serves at once (conftest.py)
def test_a_hypothesis_and_a_candidate_are_never_current_but_open_saying_what_is_unknown(store, clock):
    # given a hedged statement remembered from a human, and an extracted candidate nobody admitted
    clock.at(T0)
    store.ingest_messages("s1", [
        {"index": 0, "role": "user", "origin": "human_input", "author": "maria", "at": T0,
         "text": "I guess the payments migration finishes in March."},
        {"index": 1, "role": "user", "origin": "human_input", "author": "maria", "at": T0 + timedelta(minutes=1),
         "text": "The payments migration is owned by Team Atlas."},
    ])
    hedged = store.turn("s1").remember("the payments migration finishes in March",
                                       "The payments migration finishes in March", subject="payments migration",
                                       predicate="finishes_in", object="March", valid_from="2024-01-05")
    candidate = Candidate(statement="Team Atlas owns the payments migration", subject="payments migration",
                          predicate="owned_by", object="Team Atlas", quote="The payments migration is owned by "
                          "Team Atlas", source_index=1, valid_from="2024-01-05")
    store.extract("s1", ScriptedExtractor([[candidate]]))
    # when the package for the migration is read
    package = store.context("payments migration", valid_at="2024-02-01")
    # then neither is current; both are open, each saying what is unknown
    assert package.current == []
    kinds = {i.statement: i.open_kind for i in package.open}
    assert kinds == {"The payments migration finishes in March": "hypothesis",
                     "Team Atlas owns the payments migration": "candidate"}
    assert all(i.unknown for i in package.open)
    assert hedged.epistemic == "hypothesis"


@pytest.mark.usefixtures("semantic_logged")  # reads, not consent: remember serves at once (conftest.py)
def test_every_item_carries_its_evidence_sources_and_verified_at(store, clock):
    # given a fact remembered on a human's word
    clock.at(T0)
    store.ingest_messages("s2", [{"index": 0, "role": "user", "origin": "human_input", "author": "maria", "at": T0,
                                  "text": "Alice owns the Acme account now."}])
    fact = store.turn("s2").remember("Alice owns the Acme account", "Alice owns the Acme account",
                                     subject="Acme account", predicate="owned_by", object="Alice",
                                     valid_from="2024-01-05")
    # when the package is read
    [item] = store.context("Acme account", valid_at="2024-02-01").current
    # then the item names its evidence kind, its verified_at, and its source: the quote and the message pointer
    assert item.evidence == "stated" and item.verified_at == fact.verified_at
    [source] = item.sources
    assert (source.quote, source.session_id, source.index) == ("Alice owns the Acme account", "s2", 0)
    assert source.source_id.startswith("s") and source.author == "maria"


def test_undated_and_conflicting_facts_are_open_and_the_established_value_stays_current_disputed(store, clock):
    # given an undated fact, and a write that contradicts an established single-valued one
    clock.at("2024-01-05")
    store.add_fact("Acme account", "billed_in", "EUR", statement="Acme is billed in EUR")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01", statement="Alice owns Acme")
    store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-01-01", statement="Bob owns Acme")
    # when the package is read
    package = store.context("Acme account", valid_at="2024-02-01")
    # then the established owner is current and shown disputed; the challenger and the undated fact are open
    [owner] = package.current
    assert owner.statement == "Alice owns Acme" and owner.disputed
    kinds = {i.statement: i.open_kind for i in package.open}
    assert kinds == {"Bob owns Acme": "conflict", "Acme is billed in EUR": "undated"}


def test_a_question_is_answered_from_the_entities_it_names(store, clock):
    # given facts about two entities and one about an unrelated one
    clock.at("2024-01-05")
    store.add_fact("payments migration", "owned_by", "Team Atlas", valid_from="2024-01-01",
                   statement="Team Atlas owns the payments migration")
    store.add_fact("Team Atlas", "led_by", "Maria", valid_from="2024-01-01", statement="Maria leads Team Atlas")
    store.add_fact("search rewrite", "owned_by", "Team Nova", valid_from="2024-01-01",
                   statement="Team Nova owns the search rewrite")
    # when a question names the migration
    package = store.context("What do we know about the payments migration?", valid_at="2024-02-01")
    # then the package is built from that entity, as subject and as object of its facts
    assert package.entities == ["payments migration"]
    assert statements(package.current) == ["Team Atlas owns the payments migration"]
    both = store.context("Who is on Team Atlas and what does the payments migration need?", valid_at="2024-02-01")
    assert sorted(both.entities) == ["Team Atlas", "payments migration"]
    assert sorted(statements(both.current)) == ["Maria leads Team Atlas", "Team Atlas owns the payments migration"]


def test_the_rendering_fits_the_budget_puts_current_first_and_says_what_it_left_out(store, clock):
    # given many current facts and one superseded one
    clock.at("2024-01-05")
    store.define_predicate("uses", cardinality="multi")
    for n in range(30):
        store.add_fact("billing service", "uses", f"library number {n:02d}", valid_from="2024-01-01",
                       statement=f"The billing service uses library number {n:02d} for its nightly invoice run")
    old = store.add_fact("billing service", "owned_by", "Team Old", valid_from="2023-01-01",
                         statement="Team Old owns the billing service")
    store.succeed_fact(old.fact_id, object="Team New", at="2024-01-02", statement="Team New owns the billing service")
    # when rendered without a budget, everything is there, current first
    full = store.context("billing service", valid_at="2024-02-01")
    assert not full.truncated and full.markdown.index("## Current") < full.markdown.index("## Historical")
    assert "Team Old owns the billing service" in full.markdown and full.tokens > 300
    # when rendered within 300 tokens
    small = store.context("billing service", valid_at="2024-02-01", budget_tokens=300)
    # then it fits, keeps the first current items, and says how many of each part it left out
    assert small.tokens <= 300 and len(small.markdown) <= 300 * 4
    assert small.truncated and small.omitted["historical"] == 1 and small.omitted["current"] > 0
    assert "[truncated to fit 300 tokens" in small.markdown and "1 historical" in small.markdown
    assert statements(small.current) == statements(full.current)  # the JSON is whole; only the text is cut
    assert full.current[0].statement in small.markdown


def test_a_too_small_budget_and_an_empty_question_are_refused(store):
    with pytest.raises(InvalidInput) as err:
        store.context("Acme", budget_tokens=10)
    assert err.value.field == "budget_tokens"
    with pytest.raises(InvalidInput):
        store.context("   ")


def test_a_package_served_to_a_task_leaves_a_receipt_of_every_served_version(store, clock):
    # given a current and a superseded value
    clock.at("2024-01-05")
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01",
                           statement="Alice owns the Acme account")
    clock.at("2024-06-02")
    bob = store.succeed_fact(alice.fact_id, object="Bob", at="2024-06-01", statement="Bob owns the Acme account")
    # when an agent's task reads the package
    package = store.context("Acme account", valid_at="2024-07-01", task="renewal-42")
    # then served_to names the receipt and exactly the versions the package served, current first
    [receipt] = store.served_to("renewal-42")
    served = [i.fact.version_id for i in package.current + package.historical + package.open]
    assert receipt.receipt_id == package.receipt_id and receipt.operation == "context"
    assert [v.version_id for v in receipt.versions] == served and served[0] == bob.version_id
    assert receipt.query == "Acme account"
    # and the old owner's fact knows it was served to that task
    assert [r.task for r in store.tasks_served(alice.fact_id)] == ["renewal-42"]
    # and a package read without a task leaves no receipt
    store.context("Acme account")
    assert len(store.served_to("renewal-42")) == 1


def test_another_tenants_entity_gives_an_empty_package(store, clock):
    clock.at("2024-01-05")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    other = store.for_tenant(store.tenant + "_x").context("Acme account")
    assert other.entities == [] and other.current == other.historical == other.open == []


def test_a_question_naming_no_entity_is_answered_from_what_search_finds(store, clock):
    # given a rule about an entity the question does not name
    clock.at("2024-01-05")
    store.add_fact("refund policy", "approved_by", "Maria", valid_from="2024-01-01",
                   statement="Maria approves every refund above 500 EUR")
    store.add_fact("search rewrite", "owned_by", "Team Nova", valid_from="2024-01-01",
                   statement="Team Nova owns the search rewrite")
    # when the question only shares words with the rule's statement
    package = store.context("who approves a refund?", valid_at="2024-02-01")
    # then search found the rule, and the package is built from its entities (as subject and as object)
    assert "refund policy" in package.entities
    assert "Maria approves every refund above 500 EUR" in statements(package.current)
    assert "Team Nova owns the search rewrite" not in statements(package.current)


def test_a_package_serves_only_what_the_callers_clearance_may_see(store, clock):
    # given a public and a secret fact about one entity
    clock.at("2024-01-05")
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01", statement="Alice owns Acme",
                   sensitivity="public")
    store.add_fact("Acme account", "discount", "40 %", valid_from="2024-01-01", statement="Acme gets a 40 % discount",
                   sensitivity="secret", object_is_entity=False)
    # when a caller cleared for public data reads the package, then the secret fact is in no part
    public = store.for_tenant(store.tenant, clearance="public").context("Acme account", valid_at="2024-02-01")
    seen = statements(public.current) + statements(public.historical) + statements(public.open)
    assert seen == ["Alice owns Acme"] and "40 %" not in public.markdown
    # and a caller cleared for everything sees both
    assert len(store.context("Acme account", valid_at="2024-02-01").current) == 2
