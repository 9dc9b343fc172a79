"""Issue 4 acceptance 1, 2, 3 and 7: the write gate, acceptance pointers, hedges, and bad input."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.schema.errors import EvidenceRefused, InvalidInput, NotFound
from credo.services.gate.turns import HEDGES_EN, HEDGES_ZH, hedges, is_pure_question, locate
from tests.messages import messages

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)


msg = messages(T0, "alice")


def node_count(store):
    """Every node of the test's tenant."""
    rows = store._ctx.db.query(_COUNT, tenant=store.tenant)
    return rows[0]["n"]


def written(store):
    """(Fact nodes, AuditEvent nodes) of the test's tenant: what a write would add."""
    row = store._ctx.db.query(_WRITTEN, tenant=store.tenant)[0]
    return row["facts"], row["events"]


class _Q:  # raw count queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_COUNT = _Q("MATCH (n) WHERE n.tenant = $tenant RETURN count(n) AS n")
_WRITTEN = _Q("OPTIONAL MATCH (f:Fact {tenant: $tenant}) WITH count(f) AS facts "
              "OPTIONAL MATCH (e:AuditEvent {tenant: $tenant}) RETURN facts, count(e) AS events")


@pytest.fixture
def conversation(store, clock):
    clock.at("2025-03-01T10:00:00+00:00")
    store.ingest_messages("s1", [
        msg(0, "Let's look at the billing service."),
        msg(1, "Done: the migration finished.", origin="agent", role="assistant", author="agent"),
        msg(2, "We deploy on Fridays.\nThe   cache   TTL is 300 seconds."),
        msg(3, "Build 1234 finished: all tests green", origin="task_result", role="user", author="ci"),
        msg(4, "Also, Bob owns the billing service."),
    ])
    return store.turn("s1")


# -- 1. the gate ----------------------------------------------------------------------------------
def test_turn_holds_only_eligible_human_messages_after_the_agents_last_message(conversation):
    assert [m.index for m in conversation.messages] == [2, 4]


def test_task_result_travelling_as_user_is_not_quotable(conversation, store):
    # given a CI result that travels with role "user"; when the agent quotes it
    before = written(store)
    with pytest.raises(EvidenceRefused) as err:
        conversation.remember("all tests green", "Build 1234 passed all tests")
    # then the gate refuses it and neither a fact nor an audit entry is written
    assert err.value.field == "quote"
    assert written(store) == before and store.facts(states=None) == []


def test_quote_spanning_two_messages_is_refused(conversation):
    with pytest.raises(EvidenceRefused):
        conversation.remember("300 seconds. Also, Bob owns", "The TTL is 300 s and Bob owns billing")


def test_whitespace_only_differences_are_accepted(conversation, store):
    fact = conversation.remember("the cache TTL  is\t300 seconds".replace("the", "The", 1), "The cache TTL is 300 seconds")
    assert fact.evidence == "stated" and fact.epistemic == "confirmed"
    source = store.why(fact.fact_id).sources[0]
    assert source.index == 2 and source.span is not None


def test_a_synonym_is_refused(conversation):
    with pytest.raises(EvidenceRefused):
        conversation.remember("The cache TTL is five minutes", "The cache TTL is 300 seconds")


def test_empty_quote_is_refused_before_any_lookup(store, clock):
    # given a session whose turn has no human message at all
    store.ingest_messages("s0", [msg(0, "cron fired", origin="scheduled_trigger", role="user")])
    empty_turn = store.turn("s0")
    # then an empty quote is refused for being empty, not for the missing human turn
    with pytest.raises(EvidenceRefused, match="must not be empty"):
        empty_turn.remember("   ", "anything")
    with pytest.raises(EvidenceRefused, match="no human message"):
        empty_turn.remember("cron fired", "anything")


def test_provenance_points_at_the_message_that_matched_not_the_latest(conversation, store):
    fact = conversation.remember("We deploy on Fridays.", "The team deploys on Fridays")
    tree = store.why(fact.fact_id)
    assert [(s.index, s.quote, s.origin, s.author) for s in tree.sources] == [
        (2, "We deploy on Fridays.", "human_input", "alice")]
    assert tree.sources[0].span == [0, len("We deploy on Fridays.")]


def test_replaces_without_a_valid_quote_is_refused_and_changes_nothing(conversation, store):
    old = conversation.remember("Bob owns the billing service", "Bob owns the billing service")
    with pytest.raises(EvidenceRefused):
        conversation.remember("Carol owns the billing service", "Carol owns billing", replaces=old.fact_id)
    assert [v.version_id for v in store.history(old.fact_id)] == [old.version_id]


def test_replaces_through_the_gate_supersedes_the_replaced_fact(store, clock, conversation):
    old = conversation.remember("Bob owns the billing service", "Bob owns the billing service")
    clock.at("2025-03-02T10:00:00+00:00")
    store.ingest_messages("s1", [msg(5, "ok", origin="agent", role="assistant", author="agent"),
                                 msg(6, "Correction: Carol owns the billing service now.")])
    newer = store.turn("s1").remember("Carol owns the billing service", "Carol owns the billing service",
                                      replaces=old.fact_id)
    assert newer.fact_id == old.fact_id and newer.version_id != old.version_id
    history = store.history(old.fact_id)
    assert [(v.statement, v.known_to is None) for v in history] == [
        ("Bob owns the billing service", False), ("Carol owns the billing service", True)]
    tree = store.why(old.fact_id)
    assert [s.index for s in tree.sources] == [6]
    assert [(l.kind, l.version_id) for l in tree.supersedes] == [("correction", old.version_id)]


def test_without_a_human_message_in_the_turn_the_call_fails(store):
    store.ingest_messages("bg", [msg(0, "Remind me about the cache", origin="human_input"),
                                 msg(1, "Sure.", origin="agent", role="assistant", author="agent"),
                                 msg(2, "wake up: nightly job", origin="wake_notification", role="user")])
    with pytest.raises(EvidenceRefused, match="no human message"):
        store.turn("bg").remember("Remind me about the cache", "User wants a cache reminder")


def test_depends_on_writes_one_justification_over_the_premises(conversation, store):
    p1 = store.add_fact("API v1", "reads", "column X", valid_from="2024-01-01")
    p2 = store.add_fact("API v2", "reads", "column Y", valid_from="2024-01-01")
    fact = conversation.remember("We deploy on Fridays.", "Deploys happen on Fridays", depends_on=[p1.fact_id, p2.fact_id])
    [justification] = store.why(fact.fact_id).justifications
    assert justification.holds and sorted(p.fact_id for p in justification.premises) == sorted([p1.fact_id, p2.fact_id])


# -- 2. acceptance -----------------------------------------------------------------------------------
@pytest.fixture
def discussion(store, clock):
    clock.at("2025-04-01T10:00:00+00:00")
    store.ingest_messages("d", [
        msg(0, "Is this caching strategy a problem?"),
        msg(1, "The cache should be disabled for the billing API.", origin="agent", role="assistant", author="agent"),
        msg(2, "should we disable the cache?"),
        msg(3, "session resumed", origin="system_event", role="system", author=None),
        msg(4, "Agreed, disable it."),
    ])
    recap, _ = store.ingest_messages("d", [
        msg(0, "Recap: the cache should be disabled for the billing API.", origin="agent", role="assistant",
            author="agent"),
        msg(1, "New generation after compaction. Yes, go ahead."),
    ], generation=2)
    fact = store.add_fact("billing API", "cache", "disabled", statement="The cache should be disabled for the billing API")
    store.cite(fact.fact_id, recap.source_id)  # the agent's conclusion, in generation 2
    return fact


@pytest.mark.parametrize("pointer, rule", [
    ({"session_id": "d", "index": 1, "generation": 1}, "origin 'agent'"),
    ({"session_id": "d", "index": 3, "generation": 1}, "origin 'system_event'"),
    ({"session_id": "d", "index": 2, "generation": 1}, "only asks a question"),
    ({"session_id": "d", "index": 9}, "no message at position 9"),
    ({"session_id": "d", "index": 4, "generation": 1}, "generation 1"),
])
def test_accept_refuses_what_is_not_human_acceptance(discussion, store, pointer, rule):
    with pytest.raises(EvidenceRefused, match=rule):
        store.accept(discussion.fact_id, pointer)
    assert [v.evidence for v in store.history(discussion.fact_id)] == ["unknown"]


def test_accept_records_the_accepting_message_as_evidence_accepted(discussion, store):
    newer = store.accept(discussion.fact_id, {"session_id": "d", "index": 1})
    assert newer.evidence == "accepted"
    tree = store.why(discussion.fact_id)
    assert (tree.accepted_in.session_id, tree.accepted_in.generation, tree.accepted_in.index) == ("d", 2, 1)


def test_agreement_from_an_unrelated_session_does_not_accept_a_conclusion(discussion, store):
    # given the agent's conclusion stated in session d, and an unrelated session where someone says yes
    store.ingest_messages("other", [msg(0, "Yes, agreed.")])
    before = written(store)
    # when that agreement is offered as the acceptance
    with pytest.raises(EvidenceRefused, match="session 'd'") as err:
        store.accept(discussion.fact_id, {"session_id": "other", "index": 0})
    # then it is refused and nothing is written: the fact keeps its evidence
    assert err.value.field == "message.session_id"
    assert written(store) == before
    assert [v.evidence for v in store.history(discussion.fact_id)] == ["unknown"]


def test_agreement_in_a_later_generation_does_not_accept_a_conclusion_of_an_earlier_one(store, clock):
    # given a conclusion stated in generation 1, and the session compacted into generation 2 where the human agrees
    clock.at("2025-04-02T10:00:00+00:00")
    _, conclusion = store.ingest_messages("g", [msg(0, "What about the cache?"),
                                msg(1, "Disable the cache.", origin="agent", role="assistant", author="agent")])
    store.ingest_messages("g", [msg(0, "Yes, agreed.")], generation=2)
    fact = store.add_fact("billing API", "cache", "off", statement="Disable the cache")
    store.cite(fact.fact_id, conclusion.source_id)
    # when the generation-2 agreement is offered, then it is refused
    with pytest.raises(EvidenceRefused, match="generation 1") as err:
        store.accept(fact.fact_id, {"session_id": "g", "index": 0, "generation": 2})
    assert err.value.field == "message.generation"
    assert [v.evidence for v in store.history(fact.fact_id)] == ["unknown"]


def test_a_conclusion_that_names_no_conversation_cannot_be_accepted(store, clock):
    # given a fact added directly (no message of any session among its sources) and a human "yes" somewhere
    clock.at("2025-04-03T10:00:00+00:00")
    store.ingest_messages("y", [msg(0, "Yes, agreed.")])
    fact = store.add_fact("billing API", "cache", "disabled")
    before = written(store)
    # when the "yes" is offered as its acceptance, then it is refused: there is no conclusion's session to be in
    with pytest.raises(EvidenceRefused, match="names no conversation") as err:
        store.accept(fact.fact_id, {"session_id": "y", "index": 0})
    assert err.value.field == "fact_id"
    assert written(store) == before


def test_pure_question_rule_table():
    assert is_pure_question("should we disable the cache?")
    assert is_pure_question("要关掉缓存吗？")
    assert is_pure_question("Did we ship v3.5 to example.com yet?")  # a dot inside a version is no sentence end
    assert not is_pure_question("Yes. Should we also log it?")
    assert not is_pure_question("Agreed, disable it.")


# -- 3. hedges -----------------------------------------------------------------------------------
def test_hedged_quote_is_stored_as_a_hypothesis_never_served_as_confirmed(store, clock):
    quote = "I guess it might be API v1 still reading that column, not confirmed"
    store.ingest_messages("h", [msg(0, f"Hmm. {quote}.")])
    fact = store.turn("h").remember(quote, "API v1 reads the column", subject="API v1", predicate="reads",
                                    object="the column")
    assert fact.epistemic == "hypothesis" and fact.evidence == "stated"
    served = store.facts("API v1", "reads", include_undated=True)
    assert [f.epistemic for f in served] == ["hypothesis"]
    assert all(v.epistemic == "hypothesis" for v in store.history(fact.fact_id))
    assert store.why(fact.fact_id).epistemic == "hypothesis"


@pytest.mark.parametrize("quote", [
    "I guess the API is v1", "maybe it's Tuesday", "it is probably cached", "not sure it runs nightly",
    "that's not confirmed yet", "可能是 v1 在读这个字段", "也许明天上线", "我猜是缓存的问题", "这个还没确认",
])
def test_documented_hedges_are_detected(quote):
    assert hedges(quote)


@pytest.mark.parametrize("quote", ["We deploy on Fridays", "Bob owns billing", "缓存已经关闭了", "The mighty ducks"])
def test_plain_statements_are_not_hedges(quote):
    assert hedges(quote) == []


def test_hedge_lists_cover_the_documented_phrases():
    for phrase in ("i guess", "maybe", "probably", "not sure", "not confirmed"):
        assert phrase in HEDGES_EN
    for phrase in ("可能", "也许", "我猜", "还没确认"):
        assert phrase in HEDGES_ZH


@pytest.mark.parametrize("text, quote, span", [
    ("a  b\tc", "b c", [3, 6]), ("x\n\ny", "x y", [0, 4]), ("abc", "abd", None), ("ab", "a  b", None),
])
def test_locate_matches_after_whitespace_normalisation_only(text, quote, span):
    assert locate(text, quote) == span


# -- 7. bad input -------------------------------------------------------------------------------------
def test_unknown_session_is_not_found_and_writes_nothing(store):
    before = node_count(store)
    with pytest.raises(NotFound, match="session not found: nope"):
        store.turn("nope")
    with pytest.raises(NotFound, match="session not found: nope"):
        store.extract("nope", lambda segment, candidates: [])
    assert node_count(store) == before


def test_malformed_message_names_its_position_and_field_and_writes_nothing(store):
    with pytest.raises(InvalidInput) as err:
        store.ingest_messages("m", [msg(0, "fine"), {**msg(1, "bad"), "origin": "robot"}])
    assert err.value.field == "messages[1].origin" and "unknown origin" in err.value.rule
    with pytest.raises(InvalidInput) as err:
        store.ingest_messages("m", [{**msg(0, "no time"), "at": None}])
    assert err.value.field == "messages[0].at"
    with pytest.raises(InvalidInput) as err:
        store.ingest_messages("m", [{k: v for k, v in msg(0, "x").items() if k != "index"}])
    assert err.value.field == "messages[0].index"
    with pytest.raises(NotFound):
        store.turn("m")


def test_changing_a_stored_message_is_refused(store):
    store.ingest_messages("m", [msg(0, "original")])
    store.ingest_messages("m", [msg(0, "original")])  # identical: a no-op
    with pytest.raises(InvalidInput, match="immutable"):
        store.ingest_messages("m", [msg(0, "edited")])
    assert [m.text for m in store.turn("m").messages] == ["original"]


def test_unknown_message_index_and_unknown_fact_are_precise(discussion, store):
    before = node_count(store)
    with pytest.raises(EvidenceRefused) as err:
        store.accept(discussion.fact_id, {"session_id": "d", "index": 42})
    assert err.value.field == "message.index"
    with pytest.raises(NotFound, match="fact not found: f_nothing"):
        store.accept("f_nothing", {"session_id": "d", "index": 0})
    with pytest.raises(NotFound, match="session not found: ghost"):
        store.accept(discussion.fact_id, {"session_id": "ghost", "index": 0})
    with pytest.raises(InvalidInput, match="must point at a message"):
        store.accept(discussion.fact_id, {"index": 0})
    assert node_count(store) == before
