"""Recipes on a real Neo4j: earned by a success, kept by their success rate, retired by reward decay, served only
when live (and, when user-facing, consented to); every write one ledger event."""

from __future__ import annotations

import pytest

from credo.schema.errors import EvidenceRefused, InvalidInput, NotFound, TransitionRefused
from credo.schema.api_keys import Principal

SHAPE = "deploy a service to staging"
STEPS = ["build the image", "push it to the registry", "roll out with kubectl"]


@pytest.fixture
def success(store):
    """The tool result that shows a deploy succeeded."""
    return store.add_source("tool_result", "rollout status: deployment 'billing' successfully rolled out")


def test_a_recipe_earned_by_a_success_is_served_for_its_shape_in_any_phrasing(store, success):
    made = store.record_recipe(SHAPE, STEPS, because=success.source_id)
    assert (made.state, made.uses, made.successes, made.rate, made.because) == ("live", 0, 0, 0.5, success.source_id)
    [served] = store.recipes("Staging: deploy a SERVICE to")
    assert served.recipe_id == made.recipe_id and served.steps == STEPS and served.known_from == made.known_from
    assert store.recipes("deploy a service to production") == []
    [event] = store.audit(operation="record_recipe").items
    assert event.subject_id == made.recipe_id and event.detail["because"] == success.source_id


def test_used_ten_times_with_three_successes_a_recipe_retires_and_is_never_served(store, success, clock):
    # given a recipe earned by a success
    made = store.record_recipe(SHAPE, STEPS, because=success.source_id)
    outcomes = ["failure"] * 4 + ["success"] * 3 + ["failure"] * 3
    # when it is used ten times with three successes
    answers = [store.recipe_outcome(made.recipe_id, o) for o in outcomes]
    # then it stays live until its tenth use, and retires there: 4/12 is below 0.5 over 10 uses
    assert [a.state for a in answers] == ["live"] * 9 + ["retired"]
    assert (answers[-1].uses, answers[-1].successes, answers[-1].rate) == (10, 3, pytest.approx(4 / 12))
    assert store.recipes(SHAPE) == []
    # and it is history: read as of its ninth use it was live, with that use's counts
    [before] = store.recipes(SHAPE, known_at=answers[8].known_from)
    assert (before.state, before.uses, before.successes) == ("live", 9, 3)
    with pytest.raises(TransitionRefused):
        store.recipe_outcome(made.recipe_id, "success")
    [retired] = [e for e in store.audit(operation="recipe_outcome").items if e.detail.get("retired")]
    assert retired.subject_id == made.recipe_id


def test_an_unknown_outcome_changes_nothing_but_the_ledger(store, success):
    made = store.record_recipe(SHAPE, STEPS, because=success.source_id)
    store.recipe_outcome(made.recipe_id, "success")
    before = store.recipes(SHAPE)
    answered = store.recipe_outcome(made.recipe_id, "unknown")
    assert store.recipes(SHAPE) == before and answered == before[0]
    assert (answered.uses, answered.successes, answered.state) == (1, 1, "live")
    logged = store.audit(operation="recipe_outcome").items
    assert [e.detail["outcome"] for e in logged] == ["success", "unknown"]


def test_recipes_answer_best_first_by_rate_then_uses(store, success):
    steady = store.record_recipe(SHAPE, ["a"], because=success.source_id)
    lucky = store.record_recipe(SHAPE, ["b"], because=success.source_id)
    fresh = store.record_recipe(SHAPE, ["c"], because=success.source_id)
    for outcome in ["success"] * 9 + ["failure"]:
        store.recipe_outcome(steady.recipe_id, outcome)
    store.recipe_outcome(lucky.recipe_id, "success")
    assert [r.recipe_id for r in store.recipes(SHAPE)] == [steady.recipe_id, lucky.recipe_id, fresh.recipe_id]


def test_a_user_facing_recipe_is_served_only_once_a_person_consents(store, success):
    asked = store.record_recipe(SHAPE, STEPS, because=success.source_id, user_facing=True)
    declined = store.record_recipe(SHAPE, ["another way"], because=success.source_id, user_facing=True)
    assert asked.state == "pending_consent" and store.recipes(SHAPE) == []
    assert store.consent_recipe(declined.recipe_id, accept=False).state == "declined"
    _shown, yes = store.ingest_messages("s", [
        {"index": 0, "role": "assistant", "origin": "agent", "author": "agent", "at": "2025-01-01T09:00:00+00:00",
         "text": "Next time I'll do it this way: " + "; ".join(STEPS) + ". OK?"},
        {"index": 1, "role": "user", "origin": "human_input", "author": "ana", "text": "Yes, please",
         "at": "2025-01-01T09:01:00+00:00"}])
    assert store.consent_recipe(asked.recipe_id, accept=True, message_id=yes.source_id).state == "live"
    assert [r.recipe_id for r in store.recipes(SHAPE)] == [asked.recipe_id]
    with pytest.raises(TransitionRefused):
        store.consent_recipe(declined.recipe_id, accept=True, message_id=yes.source_id)
    store.consent_recipe(asked.recipe_id, accept=False)  # consent withdrawn
    assert store.recipes(SHAPE) == []
    assert [e.detail["accept"] for e in store.audit(operation="consent_recipe").items] == [False, True, False]


@pytest.mark.parametrize("fields,field", [
    ({"steps": []}, "steps"),
    ({"steps": ["  "]}, "steps.0"),
    ({"task_shape": ""}, "task_shape"),
    ({"task_shape": "?!"}, "task_shape"),
])
def test_bad_input_is_refused_naming_the_field_and_writes_nothing(store, success, fields, field):
    given = {"task_shape": SHAPE, "steps": STEPS, "because": success.source_id} | fields
    with pytest.raises(InvalidInput) as refused:
        store.record_recipe(given.pop("task_shape"), given.pop("steps"), **given)
    assert refused.value.field == field
    assert store.audit(operation="record_recipe").items == []


def test_a_recipe_is_earned_only_by_a_recorded_outcome(store):
    message, said = store.ingest_messages("s1", [
        {"index": 0, "role": "user", "origin": "human_input", "author": "alice", "text": "The deploy worked.",
         "at": "2025-01-01T09:00:00+00:00"},
        {"index": 1, "role": "tool", "origin": "tool_result", "author": "kubectl", "text": "rolled out",
         "at": "2025-01-01T09:01:00+00:00"}])
    document = store.add_source("document", "How we deploy: build, push, roll out.")
    for because in ("s_doesnotexist", message.source_id, document.source_id):  # a person's word is not an outcome
        with pytest.raises(EvidenceRefused) as refused:
            store.record_recipe(SHAPE, STEPS, because=because)
        assert refused.value.field == "because" and because in refused.value.rule
    assert store.audit(operation="record_recipe").items == []
    assert store.record_recipe(SHAPE, STEPS, because=said.source_id).because == said.source_id  # a tool's message


def test_a_bad_outcome_is_refused_naming_the_field(store, success):
    made = store.record_recipe(SHAPE, STEPS, because=success.source_id)
    with pytest.raises(InvalidInput) as refused:
        store.recipe_outcome(made.recipe_id, "great")
    assert refused.value.field == "outcome"
    with pytest.raises(NotFound):
        store.recipe_outcome("r_doesnotexist", "success")


def test_another_tenant_cannot_see_or_report_on_a_recipe(store, success):
    made = store.record_recipe(SHAPE, STEPS, because=success.source_id)
    other = store.for_tenant(store.tenant + "_other")
    assert other.recipes(SHAPE) == []
    for act in (lambda: other.recipe_outcome(made.recipe_id, "failure"),
                lambda: other.consent_recipe(made.recipe_id, accept=False)):
        with pytest.raises(NotFound):
            act()
    with pytest.raises(EvidenceRefused):  # nor earn one by another tenant's outcome
        other.record_recipe(SHAPE, STEPS, because=success.source_id)
    assert store.recipes(SHAPE)[0].uses == 0


def test_a_caller_cleared_below_a_recipes_label_neither_sees_nor_reports_on_it(store, success):
    made = store.record_recipe(SHAPE, STEPS, because=success.source_id)  # unlabelled: counts as internal
    public = store.for_principal(Principal(tenant=store.tenant, clearance="public"))
    assert public.recipes(SHAPE) == []
    with pytest.raises(NotFound):
        public.recipe_outcome(made.recipe_id, "failure")
    with pytest.raises(EvidenceRefused):  # nor earns one by an outcome it may not see
        public.record_recipe(SHAPE, STEPS, because=success.source_id)
    own = public.record_recipe(SHAPE, STEPS, because=public.add_source("observation", "it worked").source_id)
    assert own.sensitivity == "public" and [r.recipe_id for r in public.recipes(SHAPE)] == [own.recipe_id]
