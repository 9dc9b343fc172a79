"""The write policy on a real Neo4j (DESIGN §9): the plan `should_write` returns per kind, under the defaults and
under a tenant's override; a kind given no slot is refused naming it; the policy read as of an earlier known time;
the plan recorded with the write (a fact's `why`, a recipe)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from credo.schema.errors import InvalidInput
from credo.schema.policy import WritePlan
from credo.services.policy import plan as write_policy

OVERRIDE = {
    "episodic": {"ttl": {"default": "P7D", "chat": "PT24H", "incident": "P90D"}},
    "semantic": {"when": "inline", "visible": "logged"},
    "procedural": {"visible": "silent"},
    "relational": {"invalidate": "ttl", "visible": "surfaced"},
}


def plan_of(store, candidate, kind):
    """The plan `should_write` returns inside one write of the store's tenant (the write itself writes nothing)."""
    return store._ctx.write(lambda w: write_policy.should_write(candidate, kind, w))


def row(**fields):
    """A candidate as the write paths hand it over (add_fact's fields)."""
    return {"subject": "Ana", "predicate": "said", "object": "hello", **fields}


# (kind, candidate, expected under the defaults, expected under OVERRIDE): earns, when, invalidate, visible, ttl
TABLE = [
    ("episodic", row(), ("always", "inline", "ttl", "silent", "P30D"), ("always", "inline", "ttl", "silent", "P7D")),
    ("episodic", row(scope={"workflow": "chat"}), ("always", "inline", "ttl", "silent", "PT24H"),
     ("always", "inline", "ttl", "silent", "PT24H")),
    ("episodic", row(scope={"workflow": "incident"}), ("always", "inline", "ttl", "silent", "P90D"),
     ("always", "inline", "ttl", "silent", "P90D")),
    ("episodic", row(scope={"workflow": "billing run"}), ("always", "inline", "ttl", "silent", "P30D"),
     ("always", "inline", "ttl", "silent", "P7D")),
    ("semantic", row(), ("a source backs it", "reflection", "source", "surfaced", None),
     ("a source backs it", "inline", "source", "logged", None)),
    ("semantic", row(scope={"workflow": "chat"}), ("a source backs it", "reflection", "source", "surfaced", None),
     ("a source backs it", "inline", "source", "logged", None)),
    ("procedural", {"task_shape": "deploy", "user_facing": True},
     ("it explained a success", "task_end", "reward", "surfaced", None),
     ("it explained a success", "task_end", "reward", "silent", None)),
    ("procedural", {"task_shape": "deploy", "user_facing": False},
     ("it explained a success", "task_end", "reward", "logged", None),
     ("it explained a success", "task_end", "reward", "silent", None)),
    ("procedural", row(), ("it explained a success", "task_end", "reward", "logged", None),
     ("it explained a success", "task_end", "reward", "silent", None)),
    ("relational", row(predicate="works_at", object="Acme"),
     ("an observed entity or asserted relation", "inline", "edge", "logged", None),
     ("an observed entity or asserted relation", "inline", "ttl", "surfaced", None)),
]


def decisions(plan: WritePlan):
    return plan.earns, plan.when, plan.invalidate, plan.visible, plan.ttl


@pytest.mark.parametrize("kind,candidate,default,overridden", TABLE,
                         ids=[f"{t[0]}-{i}" for i, t in enumerate(TABLE)])
def test_the_plan_per_kind_under_the_defaults_and_under_a_tenant_override(store, kind, candidate, default,
                                                                         overridden):
    # given a tenant that never set a policy: DESIGN §9's table
    before = plan_of(store, candidate, kind)
    assert (before.kind, before.policy) == (kind, "default") and decisions(before) == default
    # when it sets one, the next write is planned by it, naming its id
    stored = store.set_write_policy(OVERRIDE)
    after = plan_of(store, candidate, kind)
    assert (after.kind, after.policy) == (kind, stored.policy_id) and decisions(after) == overridden


@pytest.mark.parametrize("kind", ["episodic", "semantic", "procedural", "relational"])
def test_a_kind_the_policy_gives_no_slot_gets_no_plan_and_its_write_is_refused_naming_it(store, kind):
    stored = store.set_write_policy({kind: {"earns": "never"}})
    assert plan_of(store, row(), kind) is None
    others = [k for k in ("episodic", "semantic", "procedural", "relational") if k != kind]
    assert all(plan_of(store, row(), k) is not None for k in others)
    with pytest.raises(InvalidInput) as refused:
        store.add_fact("Ana", "said", "hello", kind=kind)
    assert refused.value.field == "kind"
    assert kind in refused.value.rule and stored.policy_id in refused.value.rule
    assert store.facts(subject="Ana") == []  # nothing was written
    # another kind is still written, under the same policy
    written = store.add_fact("Ana", "said", "hello", kind=others[0])
    assert WritePlan.from_compact(written.write_plan).policy == stored.policy_id


def test_a_disabled_procedural_kind_refuses_a_recipe_naming_the_kind_and_the_policy(store):
    success = store.add_source("tool_result", "deployment rolled out")
    stored = store.set_write_policy({"procedural": {"earns": "never"}})
    with pytest.raises(InvalidInput) as refused:
        store.record_recipe("deploy a service", ["build", "ship"], because=success.source_id)
    assert refused.value.field == "kind" and "procedural" in refused.value.rule
    assert stored.policy_id in refused.value.rule
    assert store.recipes("deploy a service") == []


def test_an_override_is_read_back_as_of_an_earlier_known_time(store, clock):
    # given no policy yet, then a first and a second version
    never = store.write_policy()
    assert (never.policy_id, never.known_from, never.policy.model_dump(exclude_none=True)) == ("default", None, {})
    clock.at("2025-03-01")
    first = store.set_write_policy({"semantic": {"visible": "logged"}})
    clock.at("2025-06-01")
    second = store.set_write_policy({"semantic": {"visible": "silent"}, "episodic": {"ttl": {"default": "PT24H"}}})
    # then each known time answers the version then in force
    assert store.write_policy(known_at="2025-02-01").policy_id == "default"
    at_april = store.write_policy(known_at="2025-04-01")
    assert (at_april.policy_id, at_april.known_from, at_april.known_to) == (
        first.policy_id, first.known_from, second.known_from)
    assert at_april.policy.semantic.visible == "logged"
    now = store.write_policy()
    assert (now.policy_id, now.known_to, now.policy.semantic.visible) == (second.policy_id, None, "silent")
    # and setting it wrote one ledger event per version
    events = store.audit(operation="set_write_policy").items
    assert [e.subject_id for e in events] == [first.policy_id, second.policy_id]


def test_a_fact_written_under_an_override_names_that_policy_in_its_why(store):
    default = store.add_fact("Ana", "works_at", "Acme", kind="relational")
    assert store.why(default.fact_id).write_plan.policy == "default"
    stored = store.set_write_policy({"semantic": {"visible": "logged"}})
    fact = store.add_fact("Ana", "prefers", "tea")
    tree = store.why(fact.fact_id)
    assert tree.write_plan == WritePlan(kind="semantic", earns="written by its author", when="reflection",
                                        invalidate="source", visible="logged", policy=stored.policy_id)
    assert f"write policy {stored.policy_id}" in tree.text()
    # the earlier fact keeps the plan that admitted it; a correction is planned under today's policy
    assert store.why(default.fact_id).write_plan.policy == "default"
    corrected = store.correct_fact(default.fact_id, object="Initech")
    assert store.why(corrected.fact_id).write_plan.policy == stored.policy_id
    # an ended version carries the plan that admitted the claim
    ended = store.end_fact(fact.fact_id, at="2025-06-01")
    assert WritePlan.from_compact(ended.write_plan).policy == stored.policy_id


def test_a_recipe_records_its_plan(store):
    success = store.add_source("tool_result", "certificates renewed")
    person = store.record_recipe("rotate certificates", ["renew"], because=success.source_id, user_facing=True)
    assert WritePlan.from_compact(person.write_plan) == WritePlan(
        kind="procedural", earns="it explained a success", when="task_end", invalidate="reward", visible="surfaced")
    stored = store.set_write_policy({"procedural": {"when": "end_of_turn"}})
    quiet = store.record_recipe("rotate keys", ["rotate"], because=success.source_id)
    plan = WritePlan.from_compact(quiet.write_plan)
    assert (plan.visible, plan.when, plan.policy) == ("logged", "end_of_turn", stored.policy_id)
    # the plan is stored with the version: the next version (an outcome) carries it
    used = store.recipe_outcome(quiet.recipe_id, "success")
    assert used.write_plan == quiet.write_plan and store.recipes("rotate keys")[0].write_plan == quiet.write_plan


def test_a_batch_reads_the_policy_once(store, rows_read):
    store.set_write_policy({"episodic": {"ttl": {"default": "P1D"}}})
    read = rows_read("read_write_policy")
    written = store.add_facts([{"subject": f"s{i}", "predicate": "saw", "object": f"o{i}", "kind": "episodic"}
                               for i in range(50)])
    assert read == [1]  # one read, its one row, for fifty rows
    assert {WritePlan.from_compact(f.write_plan).ttl for f in written} == {"P1D"}


def test_ttl_for_answers_the_tenants_ttl_of_a_workflow_falling_back_to_default(store):
    # the defaults: 24 hours for chat, 90 days for an incident, 30 days for any other workflow
    assert write_policy.ttl_for(store._ctx, "chat") == timedelta(hours=24)
    assert write_policy.ttl_for(store._ctx, "incident") == timedelta(days=90)
    assert write_policy.ttl_for(store._ctx, "standup") == timedelta(days=30)
    store.set_write_policy({"episodic": {"ttl": {"default": "P7D", "chat": "PT24H"}}})
    assert write_policy.ttl_for(store._ctx, "chat") == timedelta(hours=24)
    assert write_policy.ttl_for(store._ctx, "incident") == timedelta(days=7)


@pytest.mark.parametrize("document,field,rule", [
    ({"episodic": {"ttl": {"chat": "PT24H"}}}, "policy.episodic.ttl", '"default" entry'),
    ({"episodic": {"ttl": {"default": "30 days"}}}, "policy.episodic.ttl", "ISO-8601 duration"),
    ({"episodic": {"ttl": {"default": "PT0S"}}}, "policy.episodic.ttl", "more than zero"),
    ({"semantic": {"ttl": {"default": "P1D"}}}, "policy.semantic", "only episodic"),
    ({"semantic": {"visible": "shouted"}}, "policy.semantic.visible", "silent"),
    ({"semantic": {"earns": "always"}}, "policy.semantic.earns", "never"),
    ({"semantik": {}}, "policy.semantik", "not permitted"),
])
def test_a_bad_policy_is_refused_naming_the_field_and_the_rule(store, document, field, rule):
    with pytest.raises(InvalidInput) as refused:
        store.set_write_policy(document)
    assert refused.value.field.startswith(field) and rule in refused.value.rule, (refused.value.field,
                                                                                   refused.value.rule)
    assert store.write_policy().policy_id == "default"
