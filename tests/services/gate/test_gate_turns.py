"""DESIGN §3 timelines: candidates serve nothing until admitted, the gate quotes only the current turn,
an explicit `replaces` obeys the lifecycle, and a merge never borrows a third fact's evidence."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.schema.errors import EvidenceRefused, InvalidInput, TransitionRefused
from credo.schema.provenance import Candidate
from credo.services.adapters.extractors import ScriptedExtractor
from tests.messages import messages

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=timezone.utc)


msg = messages(T0, "alice")


def agent(index, text="Noted."):
    return msg(index, text, origin="agent", role="assistant", author="agent")


# -- candidates ---------------------------------------------------------------------------------
@pytest.fixture
def ledger_extracted(store, clock):
    # given an established value, and a conversation that both contradicts and restates it
    clock.at("2024-05-01T10:00:00+00:00")
    established = store.add_fact("ledger", "database", "Postgres 15", valid_from="2024-01-01")
    store.ingest_messages("c", [msg(0, "the ledger runs on MySQL now"), msg(1, "and the ledger runs on Postgres 15")])
    cands = [Candidate(statement="ledger uses MySQL", subject="ledger", predicate="database", object="MySQL",
                       quote="the ledger runs on MySQL now", source_index=0, valid_from="2024-01-01"),
             Candidate(statement="ledger uses Postgres 15", subject="ledger", predicate="database",
                       object="Postgres 15", quote="the ledger runs on Postgres 15", source_index=1,
                       valid_from="2024-01-01")]
    # when both are extracted (and not admitted)
    result = store.extract("c", ScriptedExtractor([cands]))
    return established, result


def test_unadmitted_candidates_neither_dispute_nor_reinforce_established_knowledge(store, ledger_extracted):
    established, result = ledger_extracted
    # then each is a new candidate of its own; the established fact is untouched and undisputed
    assert [(f.object_name, f.state) for f in result.facts] == [("MySQL", "candidate"), ("Postgres 15", "candidate")]
    assert established.fact_id not in {f.fact_id for f in result.facts}
    served = store.facts("ledger", "database", valid_at="2024-06-01")
    assert [(f.fact_id, f.state, f.disputed) for f in served] == [(established.fact_id, "active", False)]
    assert store.conflicts() == []
    assert [v.state for v in store.history(established.fact_id)] == ["active"]


def test_admitting_a_clashing_candidate_applies_the_conflict_rule(store, ledger_extracted):
    established, result = ledger_extracted
    # when the clashing candidate is admitted
    admitted = store.admit(result.facts[0].fact_id, by="alice")
    # then it waits as conflicted and the established value stays served, shown as disputed
    assert admitted.state == "conflicted"
    [conflict] = store.conflicts()
    assert conflict.challenger.fact_id == admitted.fact_id and conflict.established.fact_id == established.fact_id
    served = store.facts("ledger", "database", valid_at="2024-06-01")
    assert [(f.object_name, f.disputed) for f in served] == [("Postgres 15", True)]


# -- the current turn ---------------------------------------------------------------------------
def test_a_turn_handle_refuses_a_quote_once_the_agent_has_replied(store, clock):
    # given a turn opened on Alice's message
    clock.at("2024-05-01T10:00:00+00:00")
    store.ingest_messages("t", [msg(0, "Alice owns the Acme account")])
    turn = store.turn("t")
    # when the agent replies and the user moves on before the handle is used
    store.ingest_messages("t", [agent(1), msg(2, "Thanks, bye")])
    # then quoting the earlier turn is refused and nothing is written
    with pytest.raises(EvidenceRefused, match="no longer in the current turn") as err:
        turn.remember("Alice owns the Acme account", "Alice owns the Acme account")
    assert err.value.field == "quote"
    assert store.facts(states=None) == []
    assert [m.index for m in store.turn("t").messages] == [2]


def test_a_turn_with_an_explicit_start_keeps_quoting_from_it(store, clock):
    # given a turn whose start the caller fixed
    clock.at("2024-05-01T10:00:00+00:00")
    store.ingest_messages("t", [msg(0, "Alice owns the Acme account")])
    turn = store.turn("t", since=0)
    store.ingest_messages("t", [agent(1)])
    # when it quotes its first message after the agent replied, then that is still its turn
    fact = turn.remember("Alice owns the Acme account", "Alice owns the Acme account")
    assert fact.evidence == "stated" and store.why(fact.fact_id).sources[0].index == 0


def test_a_message_added_to_the_same_turn_keeps_the_handle_usable(store, clock):
    # given a turn handle, and a further human message before any agent reply
    clock.at("2024-05-01T10:00:00+00:00")
    store.ingest_messages("t", [msg(0, "Alice owns the Acme account")])
    turn = store.turn("t")
    store.ingest_messages("t", [msg(1, "and Bob owns Globex")])
    # when it quotes the message it saw, then the write goes through
    assert turn.remember("Alice owns the Acme account", "Alice owns the Acme account").state == "active"


# -- replaces -----------------------------------------------------------------------------------
@pytest.fixture
def infra(store, clock):
    clock.at("2024-05-01T10:00:00+00:00")
    store.ingest_messages("u", [msg(0, "hmm"), msg(1, "Bob leads the infra team")])
    return store


def _candidate(store, session="u", quote="hmm", index=0, obj="Carol"):
    c = Candidate(statement=f"{obj} leads infra", subject="infra team", predicate="led_by", object=obj,
                  quote=quote, source_index=index)
    return store.extract(session, ScriptedExtractor([[c]])).facts[0]


def test_replaces_cannot_revive_a_rejected_fact(infra):
    # given a rejected candidate
    store = infra
    rejected = store.reject(_candidate(store).fact_id, reason="wrong")
    store.ingest_messages("u", [agent(2, "ok"), msg(3, "Bob leads the infra team")])
    # when a remembered statement tries to replace it, then the lifecycle refuses and nothing changes
    with pytest.raises(TransitionRefused, match="rejected -> active"):
        store.turn("u").remember("Bob leads the infra team", "Bob leads the infra team", replaces=rejected.fact_id)
    assert [v.state for v in store.history(rejected.fact_id) if v.known_to is None] == ["rejected"]


def test_replaces_refuses_a_conflicted_fact_and_names_resolve_conflict(store, clock):
    # given an established value and a conflicted challenger
    clock.at("2024-05-01T10:00:00+00:00")
    store.add_fact("infra team", "led_by", "Alice", valid_from="2024-01-01")
    challenger = store.add_fact("infra team", "led_by", "Carol", valid_from="2024-01-01")
    assert challenger.state == "conflicted"
    store.ingest_messages("u", [msg(0, "Bob leads the infra team")])
    # when remember tries to replace the challenger, then it is sent to resolve_conflict
    with pytest.raises(InvalidInput, match="resolve_conflict") as err:
        store.turn("u").remember("Bob leads the infra team", "Bob leads the infra team", replaces=challenger.fact_id)
    assert err.value.field == "replaces"
    assert [v.state for v in store.history(challenger.fact_id) if v.known_to is None] == ["conflicted"]


def test_a_replacement_rests_on_the_new_quote_and_keeps_its_premises(store, clock):
    # given a remembered fact that rests on a premise
    clock.at("2024-05-01T10:00:00+00:00")
    premise = store.add_fact("infra team", "exists", "yes")
    store.ingest_messages("u", [msg(0, "Carol leads the infra team")])
    old = store.turn("u").remember("Carol leads the infra team", "Carol leads the infra team",
                                   subject="infra team", predicate="led_by", object="Carol",
                                   depends_on=[premise.fact_id])
    # when a later turn replaces it
    store.ingest_messages("u", [agent(1, "ok"), msg(2, "Sorry, Bob leads the infra team")])
    new = store.turn("u").remember("Bob leads the infra team", "Bob leads the infra team", replaces=old.fact_id,
                                   object="Bob")
    # then the new version cites only the new message, and still rests on the premise
    tree = store.why(new.fact_id)
    assert [(s.index, s.quote) for s in tree.sources] == [(2, "Bob leads the infra team")]
    [justification] = store.justifications(new.fact_id)
    assert [p.fact_id for p in justification.premises] == [premise.fact_id]


# -- merge_facts --------------------------------------------------------------------------------
def test_merging_never_returns_a_third_fact_with_stronger_evidence(store, clock):
    # given two unsourced versions of a claim, and a stated fact that covers their union
    clock.at("2024-05-01T10:00:00+00:00")
    a = store.add_fact("export", "runs_at", "02:00 UTC", valid_from="2024-03", valid_to="2024-06")
    b = store.add_fact("export", "runs_at", "02:00 UTC", valid_from="2024-06", valid_to="2024-09")
    store.ingest_messages("m", [msg(0, "the export runs at 02:00 UTC")])
    stated = store.turn("m").remember("the export runs at 02:00 UTC", "The export runs at 02:00 UTC",
                                      subject="export", predicate="runs_at", object="02:00 UTC",
                                      valid_from="2024-01-01")
    assert stated.fact_id not in (a.fact_id, b.fact_id) and stated.evidence == "stated"
    # when the two unsourced ones are merged
    merged = store.merge_facts([a.fact_id, b.fact_id], statement="The export runs at 02:00 UTC")
    # then the merge is a new fact with the weakest evidence, and the stated fact is untouched
    assert merged.fact_id not in (a.fact_id, b.fact_id, stated.fact_id)
    assert merged.evidence == "unknown"
    assert [v.state for v in store.history(stated.fact_id)] == ["active"]


@pytest.mark.parametrize("bounds, hull", [
    ([("2024-03", "2024-06"), ("2024-06", "2024-09")], ("2024-03", "2024-09")),
    ([("2024-06-15", "2024-09"), ("2024", "2024-07-01")], ("2024", "2024-09")),
    ([("2024-03", None), ("2024-01-10", "2024-03")], ("2024-01-10", None)),
])
def test_a_merge_holds_over_the_union_hull_of_its_inputs_at_their_precision(store, clock, bounds, hull):
    # given versions of one claim over different intervals (multi-valued so they all stay served)
    clock.at("2024-05-01T10:00:00+00:00")
    store.define_predicate("uses", cardinality="multi")
    facts = [store.add_fact("team", "uses", "tool", valid_from=vf, valid_to=vt) for vf, vt in bounds]
    # when they are merged
    merged = store.merge_facts([f.fact_id for f in facts], statement="The team uses the tool")
    # then the merge starts at the earliest start and ends at the latest end (or stays open), precision kept
    from credo.schema.time import render
    got = (render(merged.valid_from, merged.valid_from_precision),
           None if merged.valid_to is None else render(merged.valid_to, merged.valid_to_precision))
    assert got == hull
