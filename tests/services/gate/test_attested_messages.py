"""Who vouches for a human message (the tenant flag `attested_human_messages`, off by default), on a real Neo4j.

Every human message records who ingested it (`attested_by`: the acting key, or the local principal). Off, an agent's
key relays the person's turn as today. On, only a key holding `attest` (the `harness` preset: the application that
really receives the person's input) may ingest human testimony, and the gate, acceptance and consent refuse a human
message that the key now quoting or consenting vouched for itself. A principal holding `curate` (the library, the CLI,
operator and curator keys) is not bound by that rule: it may write facts without the gate anyway."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.graph.gate import sources as source_repo
from credo.schema.api_keys import Principal
from credo.schema.errors import EvidenceRefused, Forbidden
from credo.services.access import api_keys
from tests.messages import messages

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
FLAG = "attested_human_messages"
CLAIM = "Ana leads the billing team"


msg = messages(T0, "ana")


def shown(index):
    return msg(index, "I will remember that: " + CLAIM, origin="agent", role="assistant", author="agent")


def keyed(store, neo4j_db, preset):
    """The store of a new key of this tenant made with `preset`."""
    made = api_keys.create_key(neo4j_db, tenant=store.tenant, name=preset, scopes=[preset])
    return store.for_principal(Principal.of_key(made.key))


@pytest.fixture
def agent(store, neo4j_db):
    return keyed(store, neo4j_db, "agent")


@pytest.fixture
def harness(store, neo4j_db):
    return keyed(store, neo4j_db, "harness")


def sources(store, session="s"):
    """Every stored message of a session (none: an empty list)."""
    return store._ctx.read(lambda tx: source_repo.session_messages(tx, store.tenant, session))


# -- the record ---------------------------------------------------------------------------------------------------
def test_flag_off_an_agent_key_ingests_human_text_as_today_and_the_message_records_who_vouched(store, agent, clock):
    clock.at(T0)
    said, reply = agent.ingest_messages("s", [msg(0, f"{CLAIM} since May."), shown(1)])
    assert said.attested_by == agent.principal.actor and said.attested_by.startswith("key:")
    assert reply.attested_by is None  # only human testimony is vouched for
    # and the local principal vouches for what it ingests, by its own name
    [local] = store.ingest_messages("s", [msg(2, "Thanks.")])
    assert local.attested_by == store.principal.actor
    # and the agent still quotes it: with the flag off the agent is trusted, as today
    assert agent.remember("s", CLAIM, CLAIM, since=0).state == "candidate"


# -- ingesting under the flag ----------------------------------------------------------------------------------------
def test_flag_on_an_agent_key_ingesting_human_testimony_is_refused_naming_attest_and_the_flag(store, agent, clock):
    clock.at(T0)
    store.set_tenant_flag(FLAG, enabled=True)
    with pytest.raises(Forbidden) as refused:
        agent.ingest_messages("s", [shown(0), msg(1, "Yes.")])
    assert refused.value.field == "attest" and FLAG in refused.value.rule
    # nothing of the batch was written, not even the agent's own message, and no ledger event
    assert sources(store) == [] and store.audit(operation="ingest_messages").items == []
    # other origins are unchanged: the agent's own side of the conversation still goes in
    [mine] = agent.ingest_messages("s", [shown(0)])
    assert mine.origin == "agent"


def test_flag_on_a_harness_key_ingests_human_testimony_and_vouches_for_it(store, harness, clock):
    clock.at(T0)
    store.set_tenant_flag(FLAG, enabled=True)
    [said] = harness.ingest_messages("s", [msg(0, f"{CLAIM} since May.", origin="delivered_interjection")])
    assert said.attested_by == harness.principal.actor


def test_flag_on_the_agent_quoting_a_harness_attested_message_is_admitted(store, agent, harness, clock):
    clock.at(T0)
    store.set_tenant_flag(FLAG, enabled=True)
    harness.ingest_messages("s", [msg(0, f"{CLAIM} since May.")])
    remembered = agent.remember("s", CLAIM, CLAIM)
    assert remembered.state == "candidate" and remembered.awaiting == "consent"


def test_flag_on_the_agent_quoting_a_message_it_vouched_for_itself_is_refused(store, agent, clock):
    # given a human message the agent's key ingested while the flag was off
    clock.at(T0)
    [said] = agent.ingest_messages("s", [msg(0, f"{CLAIM} since May.")])
    store.set_tenant_flag(FLAG, enabled=True)
    # when the agent quotes it with the flag on, then the gate refuses naming the message and the rule
    with pytest.raises(EvidenceRefused) as refused:
        agent.remember("s", CLAIM, CLAIM)
    assert refused.value.field == "quote"
    assert said.source_id in refused.value.rule and FLAG in refused.value.rule
    assert store.audit(operation="remember").items == []
    # and the single-user setup keeps working: the local principal (it holds curate) quotes the same message
    assert store.remember("s", CLAIM, CLAIM).awaiting == "consent"


def test_flag_on_the_local_principal_ingests_and_quotes_its_own_messages(store, clock):
    clock.at(T0)
    store.set_tenant_flag(FLAG, enabled=True)
    [said] = store.ingest_messages("s", [msg(0, f"{CLAIM} since May.")])
    assert said.attested_by == store.principal.actor
    assert store.remember("s", CLAIM, CLAIM).awaiting == "consent"


# -- consent and acceptance under the flag ---------------------------------------------------------------------------
def test_flag_on_consent_with_an_agent_attested_yes_is_refused(store, agent, harness, clock):
    # given a statement the harness vouched for, remembered by the agent, and a "yes" the agent ingested itself
    # while the flag was off
    clock.at(T0)
    harness.ingest_messages("s", [msg(0, f"{CLAIM} since May.")])
    remembered = agent.remember("s", CLAIM, CLAIM)
    clock.at(T0 + timedelta(minutes=3))
    _shown, fake = agent.ingest_messages("s", [shown(1), msg(2, "Yes.")])
    store.set_tenant_flag(FLAG, enabled=True)
    # when the agent consents with its own yes, then it is refused naming message_id and the rule
    with pytest.raises(EvidenceRefused) as refused:
        agent.consent(remembered.fact_id, "accept", message_id=fake.source_id)
    assert refused.value.field == "message_id" and FLAG in refused.value.rule
    assert store.audit(operation="consent").items == []
    # and the person's own yes, relayed by the harness, consents
    [yes] = harness.ingest_messages("s", [msg(3, "Yes, remember it.")])
    assert agent.consent(remembered.fact_id, "accept", message_id=yes.source_id).fact.state == "active"


def test_flag_off_consent_with_an_agent_attested_yes_is_admitted_as_today(store, agent, harness, clock):
    clock.at(T0)
    harness.ingest_messages("s", [msg(0, f"{CLAIM} since May.")])
    remembered = agent.remember("s", CLAIM, CLAIM)
    clock.at(T0 + timedelta(minutes=3))
    _shown, yes = agent.ingest_messages("s", [shown(1), msg(2, "Yes.")])
    assert agent.consent(remembered.fact_id, "accept", message_id=yes.source_id).fact.state == "active"


def test_flag_on_acceptance_by_a_message_the_agent_vouched_for_is_refused(store, agent, clock):
    clock.at(T0)
    [concluded] = agent.ingest_messages("s", [msg(0, "The ledger uses Postgres 15.", origin="agent",
                                                  role="assistant", author="agent")])
    fact = store.add_fact("ledger", "uses", "Postgres 15")
    store.cite(fact.fact_id, concluded.source_id)
    [ok] = agent.ingest_messages("s", [msg(1, "Right, it does.")])
    store.set_tenant_flag(FLAG, enabled=True)
    with pytest.raises(EvidenceRefused) as refused:
        agent.accept(fact.fact_id, ("s", 1))
    assert refused.value.field == "message" and ok.source_id in refused.value.rule


# -- the flag as of a known time -------------------------------------------------------------------------------------
def test_the_flag_is_read_as_of_a_known_time(store, agent, clock):
    clock.at(T0)
    on = store.set_tenant_flag(FLAG, enabled=True)
    clock.at(T0 + timedelta(hours=1))
    off = store.set_tenant_flag(FLAG, enabled=False)
    clock.at(T0 + timedelta(hours=2))
    # now off: the agent relays the person's turn again
    [said] = agent.ingest_messages("s", [msg(0, f"{CLAIM} since May.")])
    assert said.attested_by == agent.principal.actor
    # and as of a known time while it was on, the flag reads on; before it was ever set, off
    assert required(store, known_at=on.known_from + timedelta(minutes=30)) is True
    assert required(store, known_at=off.known_from + timedelta(minutes=1)) is False
    assert required(store, known_at=on.known_from - timedelta(minutes=1)) is False
    assert required(store) is False


def required(store, **known_at):
    return {f.flag: f.enabled for f in store.tenant_flags(**known_at)}[FLAG]
