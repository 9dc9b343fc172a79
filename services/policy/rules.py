"""The write policy's pure rule (DESIGN §9): a candidate, its kind and the policy in force give a `WritePlan`, or
None when the kind earns no slot. No driver argument: tested in microseconds (tests/services/policy/)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from credo.schema.facts import MEMORY_KINDS
from credo.schema.policy import (
    DEFAULT_POLICY_ID, DEFAULT_TTL, DEFAULT_TTLS, KindRule, PolicyChange, WritePlan, WritePolicy, WritePolicyVersion,
    duration,
)

DEFAULTS: dict[str, dict[str, str]] = {
    "episodic": {"earns": "always", "when": "inline", "invalidate": "ttl", "visible": "silent"},
    "semantic": {"earns": "a source backs it", "when": "reflection", "invalidate": "source", "visible": "surfaced"},
    "procedural": {"earns": "it explained a success", "when": "task_end", "invalidate": "reward",
                   "visible": "logged"},  # surfaced when user-facing (`_visible`)
    "relational": {"earns": "an observed entity or asserted relation", "when": "inline", "invalidate": "edge",
                   "visible": "logged"},
}
"""DESIGN §9's table: who earns a slot, when it is written, what invalidates it, who sees it, per kind."""

WRITERS = ("gate", "author")
"""Who makes a write: "gate", an agent on someone's word (remember, extraction, a recipe: DESIGN §9's table applies,
so a surfaced semantic write waits for the person's consent); "author", a key holder writing in its own name (add_fact,
add_facts, import, write_range, correct, succeed, merge: its own act, served at once and logged, or silent where the
tenant's policy says so)."""
AUTHORED = "written by its author"


def field_of(candidate: Any, name: str) -> Any:
    """A candidate's field, whether it is a model, a mapping or absent."""
    if isinstance(candidate, dict):
        return candidate.get(name)
    return getattr(candidate, name, None)


def workflow_of(candidate: Any) -> str:
    """The kind of workflow a candidate belongs to: its own `workflow`, else its scope's "workflow" key, else
    "default"."""
    named = field_of(candidate, "workflow") or (field_of(candidate, "scope") or {}).get("workflow")
    return named if isinstance(named, str) and named else DEFAULT_POLICY_ID


def ttl_text(version: WritePolicyVersion, workflow: str) -> str:
    """The episodic TTL of `workflow` under a policy, falling back to its "default" entry; a tenant that set no table
    has DEFAULT_TTLS (24 h for chat, 90 days for an incident, 30 days for any other workflow)."""
    table = version.policy.rule("episodic").ttl or DEFAULT_TTLS
    return table.get(workflow) or table.get(DEFAULT_POLICY_ID) or DEFAULT_TTL


def ttl(version: WritePolicyVersion, workflow: str) -> timedelta:
    """The episodic TTL of `workflow` under a policy, as a timedelta."""
    return duration(ttl_text(version, workflow))


def _visible(kind: str, rule: KindRule, candidate: Any) -> str:
    if rule.visible is not None:
        return rule.visible
    if kind == "procedural" and field_of(candidate, "user_facing"):
        return "surfaced"
    return DEFAULTS[kind]["visible"]


def plan(candidate: Any, kind: str, version: WritePolicyVersion, writer: str = "gate") -> WritePlan | None:
    """The plan for writing `candidate` as `kind` under the policy `version` by `writer` (WRITERS); None when the
    kind earns no slot. An author's write is its own act: nobody is asked for consent, so it is logged (silent when
    the tenant's policy makes the kind silent) and earns its slot by being written by its author."""
    if kind not in MEMORY_KINDS:
        raise ValueError(f"unknown kind of memory {kind!r} (one of {', '.join(MEMORY_KINDS)})")
    if writer not in WRITERS:
        raise ValueError(f"unknown writer {writer!r} (one of {', '.join(WRITERS)})")
    rule = version.policy.rule(kind)
    if rule.earns == "never":
        return None
    default = DEFAULTS[kind]
    visible = _visible(kind, rule, candidate)
    authored = writer == "author"
    if authored and visible == "surfaced":
        visible = "logged"
    return WritePlan(
        kind=kind, earns=AUTHORED if authored else default["earns"], when=rule.when or default["when"],
        invalidate=rule.invalidate or default["invalidate"], visible=visible,
        ttl=ttl_text(version, workflow_of(candidate)) if kind == "episodic" else None, policy=version.policy_id,
    )


OVERRIDES = ("earns", "when", "invalidate", "visible", "ttl")
"""The fields of a kind's override, in the order a change is listed."""


def changes(before: WritePolicy, after: WritePolicy) -> list[PolicyChange]:
    """What `after` sets differently from `before`, field by field per kind (None: the default), in kind order."""
    found = []
    for kind in MEMORY_KINDS:
        old, new = before.rule(kind), after.rule(kind)
        found += [PolicyChange(kind=kind, field=f, before=getattr(old, f), after=getattr(new, f))
                  for f in OVERRIDES if getattr(old, f) != getattr(new, f)]
    return found


def plans(version: WritePolicyVersion) -> dict[str, WritePlan | None]:
    """The plan a policy version gives each kind for an agent's candidate of no named workflow (the "default" one);
    None where the kind earns no slot."""
    return {kind: plan({}, kind, version) for kind in MEMORY_KINDS}
