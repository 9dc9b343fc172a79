"""A source the caller may not see is, for it, exactly a missing one (cypher/fragments/visible_source.cypher): a
source carries a label like a fact (a writer cleared below `internal` labels its sources with its clearance) and
is hidden from a caller who may not see that label or a fact version it is evidence for. The write gate, acceptance,
extraction, ingest, cite, quarantine and release never answer differently for a hidden message than for none, and
why, export_prov and the context package never show a hidden source's id, title, uri or quote."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from credo.schema.errors import CredoError, NotFound
from credo.schema.provenance import Candidate
from tests.messages import messages

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
HIDDEN_TEXT = "Quokka Hiddenperson has diabetesvex condition."
BELOW_SECRET = ["public", "internal", "confidential"]


msg = messages(T0, "maria", iso=True)


def refusal(call) -> tuple[str, str, str] | None:
    """(error type, field, message) of the call's refusal, or None when it succeeded."""
    try:
        call()
    except CredoError as exc:
        return type(exc).__name__, getattr(exc, "field", getattr(exc, "kind", "")), str(exc)
    return None


@pytest.fixture
def relabelled(store, clock):
    """Session s1 (written by a caller cleared for all): message 0 backs a fact relabelled secret after it was
    remembered; message 1 backs nothing."""
    clock.at(T0)
    store.ingest_messages("s1", [msg(0, HIDDEN_TEXT), msg(1, "The canteen opens at noon today.")])
    fact = store.remember("s1", "Quokka Hiddenperson has diabetesvex condition",
                          "Quokka Hiddenperson has diabetesvex condition", subject="Quokka Hiddenperson",
                          predicate="has_condition", object="diabetesvex")
    store.correct_fact(fact.fact_id, sensitivity="secret")
    return fact


# -- item 1: the gate is no oracle on a message above the caller's clearance -------------------------------
@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_the_gate_answers_a_probe_of_a_hidden_message_as_if_no_message_held_it(store, relabelled, clearance):
    caller = store.for_tenant(store.tenant, clearance=clearance)
    probe = dict(content="unrelated words here", subject="Nobody", predicate="p", object="Nothing")
    # when the caller probes the hidden message a character at a time (the right next letter, then a wrong one)
    held = refusal(lambda: caller.remember("s1", "Quokka Hiddenperson has d", **probe))
    absent = refusal(lambda: caller.remember("s1", "Quokka Hiddenperson has c", **probe))
    # then both answers are one and the same refusal
    assert held is not None and held == absent
    # and the hidden words cannot be remembered as a claim of the caller's own
    stolen = refusal(lambda: caller.remember("s1", "Quokka Hiddenperson has diabetesvex",
                                             "Quokka Hiddenperson has diabetesvex", subject="Quokka Hiddenperson",
                                             predicate="has", object="diabetesvex"))
    assert stolen is not None and stolen[0] in ("EvidenceRefused", "NotFound")
    assert all("diabetesvex" not in f.statement for f in caller.facts(states=["active", "conflicted", "candidate"]))


@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_the_turn_holds_no_hidden_message(store, relabelled, clearance):
    caller = store.for_tenant(store.tenant, clearance=clearance)
    try:
        texts = [m.text for m in caller.turn("s1").messages]
    except NotFound:
        texts = []  # a public caller sees no message of s1 at all (unlabelled messages count as internal)
    assert HIDDEN_TEXT not in texts
    assert texts == ([] if clearance == "public" else ["The canteen opens at noon today."])


@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_a_hidden_message_accepts_nothing_exactly_like_a_missing_position(store, clock, clearance):
    # given an agent's conclusion in s2, and a human's acceptance that is also evidence for a secret fact
    clock.at(T0)
    concluded, accepting = store.ingest_messages("s2", [
        msg(0, "Then the canteen is closed in the morning.", origin="agent", role="assistant", author="agent"),
        msg(1, "Yes, that is right.")])
    conclusion = store.add_fact("Canteen", "closed_in", "the morning", valid_from="2025-01-01", sensitivity="public")
    store.cite(conclusion.fact_id, concluded.source_id)
    secret = store.add_fact("Vault", "holds", "Gold", valid_from="2024-01-01", sensitivity="secret")
    store.cite(secret.fact_id, accepting.source_id)
    caller = store.for_tenant(store.tenant, clearance=clearance)
    # when the caller points at the hidden acceptance, and at a position no message holds
    hidden = refusal(lambda: caller.accept(conclusion.fact_id, {"session_id": "s2", "index": 1}))
    missing = refusal(lambda: caller.accept(conclusion.fact_id, {"session_id": "s2", "index": 7}))
    # then both are refused alike (the position named is the caller's own), and nothing was accepted
    assert hidden is not None and missing is not None
    assert hidden[:2] == missing[:2] and hidden[2].replace("position 1", "position 7") == missing[2]
    assert all(v.evidence.value != "accepted" for v in store.history(conclusion.fact_id))


@pytest.mark.parametrize("clearance", ["internal", "confidential"])
def test_extraction_never_reads_nor_consumes_a_hidden_message(store, relabelled, clearance):
    caller = store.for_tenant(store.tenant, clearance=clearance)
    seen: list[str] = []

    def extractor(segment, candidates):
        seen.extend(m.text or "" for m in segment)
        return [Candidate(subject="Canteen", predicate="opens_at", object="noon", statement="The canteen opens at noon",
                          quote="The canteen opens at noon", source_index=1)]

    result = caller.extract("s1", extractor)
    # the hidden message was neither shown to the extractor nor consumed: a caller cleared for it still extracts it
    assert seen == ["The canteen opens at noon today."] and result.consumed == [1]
    later: list[str] = []
    store.extract("s1", lambda segment, candidates: later.extend(m.text or "" for m in segment) or [])
    assert later == [HIDDEN_TEXT]


@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_ingest_refuses_a_hidden_position_whatever_it_holds(store, relabelled, clearance):
    caller = store.for_tenant(store.tenant, clearance=clearance)
    same = refusal(lambda: caller.ingest_messages("s1", [msg(0, HIDDEN_TEXT)]))
    other = refusal(lambda: caller.ingest_messages("s1", [msg(0, "Something else entirely.")]))
    assert same is not None and same == other and same[0] == "InvalidInput"
    assert [m.text for m in store.turn("s1", since=0).messages] == [HIDDEN_TEXT, "The canteen opens at noon today."]


def test_a_public_agent_remembers_from_its_own_messages_until_they_back_a_hidden_fact(store, clock):
    clock.at(T0)
    agent = store.for_tenant(store.tenant, clearance="public")
    [said] = agent.ingest_messages("s3", [msg(0, "Alice owns the Acme account now.")])
    assert said.sensitivity == "public"  # a caller below internal labels its messages with its clearance
    fact = agent.remember("s3", "Alice owns the Acme account", "Alice owns the Acme account",
                          subject="Acme account", predicate="owned_by", object="Alice")
    assert fact.evidence.value == "stated"
    # when a key cleared for it makes the fact secret, the message backs a secret version: hidden from the agent
    store.correct_fact(fact.fact_id, sensitivity="secret")
    with pytest.raises(NotFound):
        agent.turn("s3")


# -- item 4: cite, quarantine and release by a hidden source id answer like a missing source ---------------
@pytest.fixture
def hidden_source(store, clock):
    """A public fact, and a document that backs a secret fact (so hidden from every caller below secret)."""
    clock.at(T0)
    public = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public")
    secret = store.add_fact("Vault", "holds", "Gold", valid_from="2024-01-01", sensitivity="secret")
    doc = store.add_source("document", "The vault holds gold bars.", title="Vault ledger Q3",
                           uri="https://example.org/vault-ledger")
    store.cite(secret.fact_id, doc.source_id, quote="The vault holds gold")
    return public, secret, doc


MISSING_SOURCE = "s_00000000000000000000"


@pytest.mark.parametrize("act", ["cite", "quarantine", "release"])
@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_an_act_by_a_hidden_source_id_answers_like_a_missing_source(store, hidden_source, act, clearance):
    public, _secret, doc = hidden_source
    caller = store.for_tenant(store.tenant, clearance=clearance)
    call = {"cite": lambda s: caller.cite(public.fact_id, s),
            "quarantine": lambda s: caller.quarantine(s, reason="odd", actor="cu"),
            "release": lambda s: caller.release(s, reason="fine", actor="cu")}[act]
    before = [e.event_id for e in store.audit().items]
    with pytest.raises(NotFound) as on_hidden:
        call(doc.source_id)
    with pytest.raises(NotFound) as on_missing:
        call(MISSING_SOURCE)
    assert str(on_hidden.value).replace(doc.source_id, MISSING_SOURCE) == str(on_missing.value)
    assert [e.event_id for e in store.audit().items] == before  # nothing written
    assert store.why(public.fact_id).sources == []


@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_why_prov_and_the_package_never_name_a_hidden_source(store, hidden_source, clearance):
    public, _secret, doc = hidden_source
    store.cite(public.fact_id, doc.source_id, quote="The vault holds gold")  # cited by a key cleared for it
    caller = store.for_tenant(store.tenant, clearance=clearance)
    tree = caller.why(public.fact_id)
    assert tree.sources == [] and tree.sources_withheld == 1 and "1 source withheld" in tree.text()
    shown = json.dumps([tree.model_dump(mode="json"), caller.export_prov(public.fact_id),
                        caller.context("Door").model_dump(mode="json")])
    for word in (doc.source_id, "Vault ledger Q3", "vault-ledger", "gold"):
        assert word not in shown
    # while a caller cleared for it sees the source
    assert [s.title for s in store.why(public.fact_id).sources] == ["Vault ledger Q3"]


def test_a_source_visible_to_the_caller_is_cited_as_before(store, clock):
    clock.at(T0)
    public = store.for_tenant(store.tenant, clearance="public")
    fact = public.add_fact("Door", "opens", "Friday", valid_from="2024-01-01")
    doc = public.add_source("document", "The door opens on Friday.", title="Door rota")
    assert doc.sensitivity == "public"
    public.cite(fact.fact_id, doc.source_id, quote="The door opens on Friday")
    assert [s.title for s in public.why(fact.fact_id).sources] == ["Door rota"]


@pytest.mark.parametrize("clearance", ["internal", "confidential"])
def test_a_hidden_message_reaches_no_summary_the_caller_may_read(store, relabelled, clearance):
    from credo.services.adapters.summarizers import ListSummarizer

    caller = store.for_tenant(store.tenant, clearance=clearance)
    [hidden, shown] = store.turn("s1", since=0).messages
    # a summary the caller builds from the hidden message answers like one built from a missing source
    refused = refusal(lambda: caller.add_summary("what was said", derived_from=[hidden.source_id],
                                                 summarizer=ListSummarizer()))
    missing = refusal(lambda: caller.add_summary("what was said", derived_from=["s_00000000000000000000"],
                                                 summarizer=ListSummarizer()))
    assert refused is not None and refused[:2] == missing[:2]
    # and a summary a cleared key built from it is as hidden as the message
    made = store.add_summary("what was said", derived_from=[hidden.source_id, shown.source_id],
                             summarizer=ListSummarizer())
    assert made.summary_id not in {s.summary_id for s in caller.summaries()}
    with pytest.raises(NotFound):
        caller.summary(made.summary_id)
    assert "diabetesvex" not in json.dumps([s.model_dump(mode="json") for s in caller.summaries()])
