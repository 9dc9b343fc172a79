"""The write policy's pure rule: DESIGN §9's defaults, overrides, a kind given no slot, the TTL per workflow."""

from __future__ import annotations

from datetime import timedelta

import pytest

from credo.schema.policy import DEFAULT_VERSION, WritePolicy, WritePolicyVersion
from credo.services.policy import rules


def version(document: dict) -> WritePolicyVersion:
    return WritePolicyVersion(policy_id="wp_1", policy=WritePolicy.model_validate(document))


@pytest.mark.parametrize("kind,expected", [
    ("episodic", ("always", "inline", "ttl", "silent", "P30D")),
    ("semantic", ("a source backs it", "reflection", "source", "surfaced", None)),
    ("procedural", ("it explained a success", "task_end", "reward", "logged", None)),
    ("relational", ("an observed entity or asserted relation", "inline", "edge", "logged", None)),
])
def test_the_defaults_are_design_section_nine(kind, expected):
    plan = rules.plan({}, kind, DEFAULT_VERSION)
    assert (plan.earns, plan.when, plan.invalidate, plan.visible, plan.ttl) == expected
    assert (plan.kind, plan.policy) == (kind, "default")


@pytest.mark.parametrize("candidate,workflow", [
    ({}, "default"), ({"scope": {}}, "default"), ({"scope": {"workflow": "chat"}}, "chat"),
    ({"workflow": "incident", "scope": {"workflow": "chat"}}, "incident"), ({"scope": {"workflow": ""}}, "default"),
])
def test_the_workflow_of_a_candidate(candidate, workflow):
    assert rules.workflow_of(candidate) == workflow


@pytest.mark.parametrize("workflow,expected", [("chat", timedelta(hours=24)), ("incident", timedelta(days=90)),
                                               ("unknown", timedelta(days=7)), ("default", timedelta(days=7))])
def test_the_ttl_of_a_workflow_falls_back_to_the_default_entry(workflow, expected):
    policy = version({"episodic": {"ttl": {"default": "P7D", "chat": "PT24H", "incident": "P90D"}}})
    assert rules.ttl(policy, workflow) == expected
    # a tenant with no table has the defaults: 24 hours for chat, 90 days for an incident, 30 days otherwise
    assert rules.ttl(DEFAULT_VERSION, workflow) == {"chat": timedelta(hours=24), "incident": timedelta(days=90)}.get(
        workflow, timedelta(days=30))


def test_user_facing_procedural_memory_is_surfaced_unless_the_policy_says_otherwise():
    assert rules.plan({"user_facing": True}, "procedural", DEFAULT_VERSION).visible == "surfaced"
    assert rules.plan({"user_facing": True}, "procedural", version({"procedural": {"visible": "logged"}})).visible == (
        "logged")


def test_a_kind_the_policy_gives_no_slot_has_no_plan_and_an_unknown_kind_is_an_error():
    assert rules.plan({}, "semantic", version({"semantic": {"earns": "never"}})) is None
    assert rules.plan({}, "episodic", version({"semantic": {"earns": "never"}})) is not None
    with pytest.raises(ValueError, match="unknown kind"):
        rules.plan({}, "emotional", DEFAULT_VERSION)
