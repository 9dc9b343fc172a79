"""Issue 27 item 2, evidence by consequence (DESIGN §11): a rule marked operational (it can change production) needs
direct evidence - a tool result, code, a test or a log, as a source of that kind. Without one it stays a hypothesis,
however plainly a person said it, and the context package names what is missing; citing a direct source confirms it
in a new version; a non-operational fact is unaffected."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.errors import InvalidInput
from credo.services.facts import evidence_rules
from credo.services.facts.evidence_rules import MISSING_DIRECT
from tests.messages import messages

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
RULE = "Deploys to production are frozen on Fridays"


msg = messages(T0, "alice")


def remembered_rule(store, clock, *, operational=True, text=f"{RULE}.", quote=RULE):
    """A person states the rule in a conversation; the agent remembers it through the gate."""
    clock.at(T0)
    store.ingest_messages("s", [msg(0, text)])
    return store.remember("s", quote, RULE, subject="production", predicate="deploy_rule", operational=operational,
                          valid_from="2025-01-01")


def item(package, statement):
    return next(i for i in package.current + package.open + package.historical if i.statement == statement)


def test_an_operational_rule_from_a_conversation_only_stays_a_hypothesis_and_the_package_names_what_is_missing(
        store, clock):
    # given a person plainly stating an operational rule (no hedge), remembered through the gate
    fact = remembered_rule(store, clock)
    # then it is a stated hypothesis, held for want of direct evidence, not confirmed by the conversation alone
    assert fact.evidence.value == "stated" and fact.epistemic.value == "hypothesis"
    assert fact.operational and fact.evidence_hold
    # and the context package lists it under open, naming the missing evidence, in the item and in the markdown
    clock.at(T0 + timedelta(hours=1))
    package = store.context("production")
    rule = item(package, RULE)
    assert rule.part == "open" and rule.open_kind == "hypothesis"
    assert rule.missing_evidence == MISSING_DIRECT
    assert "direct evidence" in rule.cause and "tool_result, code, test or log" in rule.unknown
    assert f"missing {MISSING_DIRECT}" in package.markdown
    assert RULE not in [i.statement for i in package.current]
    # and why says it too
    tree = store.why(fact.fact_id)
    assert tree.missing_evidence == MISSING_DIRECT and f"missing {MISSING_DIRECT}" in tree.text()


@pytest.mark.parametrize("kind", ["log", "test", "code", "tool_result"])
def test_citing_a_direct_source_makes_the_operational_rule_confirmed_in_a_new_version(store, clock, kind):
    # given the held rule
    fact = remembered_rule(store, clock)
    # when a source of a direct kind is recorded and cited under it
    clock.at(T0 + timedelta(hours=1))
    source = store.add_source(kind, "freeze.yml: deploy.production.friday = false", title="freeze config")
    assert source.kind == kind
    store.cite(fact.fact_id, source.source_id)
    # then a new version is believed: confirmed, no longer held, with the conversation's quote and the new source
    history = store.history(fact.fact_id)
    assert len(history) == 2
    old, new = sorted(history, key=lambda v: v.known_from)
    assert old.known_to is not None and old.ended_by.value == "state_change" and old.epistemic.value == "hypothesis"
    assert new.known_to is None and new.epistemic.value == "confirmed" and not new.evidence_hold and new.operational
    tree = store.why(fact.fact_id)
    assert {s.kind for s in tree.sources} == {"message", kind} and tree.missing_evidence is None
    # and the package now serves it as current, with nothing missing
    clock.at(T0 + timedelta(hours=2))
    rule = item(store.context("production"), RULE)
    assert rule.part == "current" and rule.missing_evidence is None
    # and the earlier known time still shows the hypothesis (versions are immutable)
    before = item(store.context("production", known_at=T0 + timedelta(minutes=30)), RULE)
    assert before.part == "open" and before.missing_evidence == MISSING_DIRECT
    # and the confirmation is one ledger event of the cite
    cites = store.audit(operation="cite").items
    assert len(cites) == 1 and cites[0].detail["confirmed"] is True


def test_a_tool_s_own_message_counts_as_a_tool_result(store, clock):
    # given the held rule, and a message in the session whose origin is a tool's output
    fact = remembered_rule(store, clock)
    tool_message = store.ingest_messages("s", [msg(1, "CI: deploy gate rejected friday deploy", origin="tool_result",
                                                    author="ci")])[0]
    assert tool_message.kind == "message" and tool_message.origin == "tool_result"
    # when it is cited
    store.cite(fact.fact_id, tool_message.source_id)
    # then the rule is confirmed
    assert store.why(fact.fact_id).fact.epistemic.value == "confirmed"


@pytest.mark.parametrize("kind", ["document", "observation"])
def test_an_indirect_source_does_not_confirm_the_operational_rule(store, clock, kind):
    # given the held rule, cited with a document or an observation (not direct evidence)
    fact = remembered_rule(store, clock)
    source = store.add_source(kind, "The wiki says deploys are frozen on Fridays")
    store.cite(fact.fact_id, source.source_id)
    # then it stays the same hypothesis, still missing direct evidence
    tree = store.why(fact.fact_id)
    assert tree.fact.version_id == fact.version_id and tree.fact.epistemic.value == "hypothesis"
    assert tree.missing_evidence == MISSING_DIRECT


def test_a_hedged_operational_rule_stays_a_hypothesis_even_with_direct_evidence(store, clock):
    # given a person who hedges the rule
    fact = remembered_rule(store, clock, text=f"I guess {RULE.lower()}.", quote=RULE.lower())
    assert fact.epistemic.value == "hypothesis" and not fact.evidence_hold
    # when a log is cited
    store.cite(fact.fact_id, store.add_source("log", "friday deploy blocked").source_id)
    # then the hedge still decides: a hypothesis, but nothing is missing any more
    tree = store.why(fact.fact_id)
    assert tree.fact.epistemic.value == "hypothesis" and tree.missing_evidence is None


def test_a_non_operational_fact_is_unaffected(store, clock):
    # given the same rule remembered without the mark
    fact = remembered_rule(store, clock, operational=False)
    # then it is confirmed by the person's word, and the package serves it as current with nothing missing
    assert fact.epistemic.value == "confirmed" and not fact.operational and not fact.evidence_hold
    clock.at(T0 + timedelta(hours=1))
    rule = item(store.context("production"), RULE)
    assert rule.part == "current" and rule.missing_evidence is None
    assert "missing" not in store.context("production").markdown


def test_add_fact_and_add_facts_hold_an_operational_rule_too(store, clock):
    # given an operational rule written by a curator, alone and in a batch
    clock.at(T0)
    one = store.add_fact("payments", "retry_limit", 3, operational=True, valid_from="2025-01-01")
    many = store.add_facts([{"subject": "payments", "predicate": "timeout_seconds", "object": 30,
                             "operational": True, "valid_from": "2025-01-01"},
                            {"subject": "payments", "predicate": "owner", "object": "Ops"}])
    # then the operational ones are held hypotheses, the other is confirmed
    assert one.epistemic.value == "hypothesis" and one.evidence_hold
    assert [f.epistemic.value for f in many] == ["hypothesis", "confirmed"]
    # and a test result cited under one confirms it
    store.cite(one.fact_id, store.add_source("test", "test_retry_limit PASSED").source_id)
    assert store.why(one.fact_id).fact.epistemic.value == "confirmed"


def test_add_source_takes_the_new_kinds_and_still_refuses_unknown_ones(store):
    assert [store.add_source(k, "x").kind for k in ("code", "test", "log")] == ["code", "test", "log"]
    with pytest.raises(InvalidInput):
        store.add_source("rumour", "x")


@pytest.mark.parametrize("epistemic, operational, direct, expected", [
    ("confirmed", True, False, ("hypothesis", True)),
    ("confirmed", True, True, ("confirmed", False)),
    ("hypothesis", True, False, ("hypothesis", False)),  # a hedge: not a hold
    ("confirmed", False, False, ("confirmed", False)),
    ("hypothesis", False, False, ("hypothesis", False)),
])
def test_the_hold_rule(epistemic, operational, direct, expected):
    status, hold = evidence_rules.held(epistemic, operational=operational, direct=direct)
    assert (status.value, hold) == expected


def test_reverifying_a_held_rule_confirms_it_only_with_a_direct_source(store, clock):
    # given the held rule, re-verified as holding on a note, then on a document: still a hypothesis
    fact = remembered_rule(store, clock)
    clock.at(T0 + timedelta(hours=1))
    store.reverify(fact.fact_id, outcome="holds", evidence="the team lead says so")
    doc = store.add_source("document", "Runbook: no Friday deploys")
    store.reverify(fact.fact_id, outcome="holds", evidence=[doc.source_id])
    assert store.why(fact.fact_id).fact.epistemic.value == "hypothesis"
    # when it is re-verified on a log
    log = store.add_source("log", "2025-02-28 deploy blocked: friday freeze")
    store.reverify(fact.fact_id, outcome="holds", evidence=[log.source_id])
    # then it is confirmed and nothing is missing
    tree = store.why(fact.fact_id)
    assert tree.fact.epistemic.value == "confirmed" and not tree.fact.evidence_hold and tree.missing_evidence is None


def test_a_person_restating_a_held_rule_does_not_confirm_it(store, clock):
    # given the held rule, and the same person restating it plainly in a later turn (a restatement joins the fact)
    fact = remembered_rule(store, clock)
    clock.at(T0 + timedelta(hours=1))
    store.ingest_messages("s", [msg(1, "ok", origin="agent", author="bot"), msg(2, f"{RULE}, really.")])
    again = store.remember("s", RULE, RULE, subject="production", predicate="deploy_rule", valid_from="2025-01-01")
    # then it is the same fact, both quotes kept, and still a held hypothesis
    assert again.fact_id == fact.fact_id
    tree = store.why(fact.fact_id)
    assert len([s for s in tree.sources if s.kind == "message"]) == 2
    assert tree.fact.epistemic.value == "hypothesis" and tree.missing_evidence == MISSING_DIRECT
