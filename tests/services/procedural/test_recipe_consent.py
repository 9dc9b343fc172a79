"""Consent to a user-facing recipe on a real Neo4j ("next time I'll do it this way - OK?", DESIGN §9): accepting it
needs the person's message saying yes, by the same rules as consent to a surfaced fact (services/gate/consent.py): an
eligible human message, not a refusal, of the session's current generation, after an agent message that showed the
recipe's steps, both written after the recipe was recorded. An agent alone never makes a user-facing recipe live."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.schema.errors import EvidenceRefused, InvalidInput
from tests.messages import messages

SHAPE = "deploy a service to staging"
STEPS = ["build the image", "push it to the registry"]
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)


msg = messages(T0, "ana")


def shown(index=1):
    return msg(index, "Next time I'll do it this way: build the image; push it to the registry. OK?",
               origin="agent", role="assistant", author="agent")


@pytest.fixture
def asked(store):
    """Given: a user-facing recipe earned by a tool result, waiting for the person."""
    success = store.add_source("tool_result", "rollout status: deployment 'billing' successfully rolled out")
    return store.record_recipe(SHAPE, STEPS, because=success.source_id, user_facing=True)


def refused(store, recipe_id, message_id):
    with pytest.raises(EvidenceRefused) as caught:
        store.consent_recipe(recipe_id, accept=True, message_id=message_id)
    assert caught.value.field == "message_id"
    assert store.recipes(SHAPE) == [] and store.audit(operation="consent_recipe").items == []
    return caught.value.rule


def test_accepting_a_user_facing_recipe_needs_the_persons_message(store, asked):
    with pytest.raises(InvalidInput) as caught:
        store.consent_recipe(asked.recipe_id, accept=True)
    assert caught.value.field == "message_id" and "person" in caught.value.rule
    assert store.recipes(SHAPE) == []


def test_the_persons_yes_after_the_agent_showed_the_steps_makes_it_live(store, asked):
    _shown, yes = store.ingest_messages("s", [shown(), msg(2, "Yes, do it that way")])
    made = store.consent_recipe(asked.recipe_id, accept=True, message_id=yes.source_id)
    assert made.state == "live" and made.consented_in == yes.source_id
    assert [r.recipe_id for r in store.recipes(SHAPE)] == [asked.recipe_id]
    [event] = store.audit(operation="consent_recipe").items
    assert event.detail["source_id"] == yes.source_id and event.detail["accept"] is True


def test_the_agents_own_message_is_no_consent(store, asked):
    [own] = store.ingest_messages("s", [shown()])
    assert "origin 'agent'" in refused(store, asked.recipe_id, own.source_id)


def test_a_refusal_is_no_consent(store, asked):
    _shown, no = store.ingest_messages("s", [shown(), msg(2, "No, don't do it that way")])
    assert "refuses" in refused(store, asked.recipe_id, no.source_id)


def test_a_yes_no_agent_message_answered_is_no_consent(store, asked):
    [yes] = store.ingest_messages("s", [msg(0, "Yes, sounds good")])
    assert "showed the person" in refused(store, asked.recipe_id, yes.source_id)


def test_a_line_that_left_out_a_step_is_no_consent(store, asked):
    partial = msg(1, "Next time I'll build the image first. OK?", origin="agent", role="assistant", author="agent")
    _shown, yes = store.ingest_messages("s", [partial, msg(2, "Yes")])
    assert "showed the person" in refused(store, asked.recipe_id, yes.source_id)


def test_a_yes_written_before_the_recipe_existed_is_no_consent(store):
    _shown, early = store.ingest_messages("s", [shown(), msg(2, "Yes, do it that way")])
    success = store.add_source("tool_result", "rollout status: deployment 'billing' successfully rolled out")
    later = store.record_recipe(SHAPE, STEPS, because=success.source_id, user_facing=True)
    assert "showed the person" in refused(store, later.recipe_id, early.source_id)


def test_a_yes_of_an_earlier_generation_is_no_consent(store, asked):
    _shown, yes = store.ingest_messages("s", [shown(), msg(2, "Yes, do it that way")])
    store.ingest_messages("s", [msg(0, "Let's start over")], generation=2)
    with pytest.raises(EvidenceRefused) as caught:
        store.consent_recipe(asked.recipe_id, accept=True, message_id=yes.source_id)
    assert caught.value.field == "message_id.generation"


def test_a_missing_message_is_no_consent(store, asked):
    assert "names no stored message" in refused(store, asked.recipe_id, "s_doesnotexist")


def test_declining_needs_no_message(store, asked):
    assert store.consent_recipe(asked.recipe_id, accept=False).state == "declined"
