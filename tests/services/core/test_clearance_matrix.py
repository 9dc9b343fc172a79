"""A caller's clearance bounds every read (issue 24 §1): stores of each clearance over one tenant holding facts, a
premise, summaries, entities, conflicts, a supersession and a read receipt of each sensitivity call every read
operation of the registry, and no answer carries text (statement, quote, entity name, summary text or topic) or a
version above the caller's clearance; lists hold exactly what the caller may see of what a cleared-for-all caller
gets, and `why` counts what it withholds."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from credo.schema.api_keys import Principal
from credo.schema.errors import Forbidden, NotFound
from credo.schema.lifecycle import State
from credo.schema.operations import OPERATIONS
from credo.schema.search import CLEARANCES, SENSITIVITY_ORDER, can_see
from credo.store import Store
from credo.services.verify.review import ReviewQueue

# one marker word per sensitivity: it appears only in content of that sensitivity (statements, entity names, summary
# texts and topics); None stands for a fact written without a label (counted as internal)
MARKERS = {"public": "Plumtree", None: "Inkwell", "confidential": "Copperleaf", "secret": "Sablewing"}
ALL_STATES = [s.value for s in State]


class World:
    """The tenant every clearance reads: ids by role, and every version's label (as a cleared-for-all store saw it)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.fact_ids: list[str] = []
        self.version_ids: list[str] = []
        self.summary_ids: list[str] = []
        self.label_of: dict[str, str | None] = {}  # fact version id or summary version id -> effective label
        self.entities = ["Acme", "Plumtree Holdings", "Inkwell Works", "Copperleaf Labs", "Sablewing Clinic",
                         "Sablewing Vault", "Sablewing Holdings", "Friday"]
        self.predicates = ["uses_public", "uses_internal", "uses_confidential", "uses_secret", "owned_by", "treats",
                           "rule", "deploys_on", "motto", "hq_in", "ceo"]
        self.task = "audit-task"
        self.preference_ids: list[str] = []  # one preference fact per label, with outcomes (the secret one drifted)


def _build(store: Store, clock) -> World:
    world = World(store)
    add = store.add_fact
    clock.at("2024-02-01")
    made = []
    for label, marker in MARKERS.items():
        level = label or "internal"
        made.append(add("Acme", f"uses_{level}", f"{marker} Works" if label is None else
                        {"public": "Plumtree Holdings", "confidential": "Copperleaf Labs",
                         "secret": "Sablewing Clinic"}[label], valid_from="2024-01-01", sensitivity=label,
                        statement=f"Acme uses the {marker} tool"))
    # an entity that exists only through a secret fact, and one only as a secret fact's subject
    made.append(add("Sablewing Clinic", "treats", "Acme", valid_from="2024-01-01", sensitivity="secret",
                    statement="Sablewing Clinic treats Acme"))
    premise = add("Sablewing Vault", "rule", "Friday", valid_from="2024-01-01", sensitivity="secret",
                  statement="Sablewing rule: deploy on Friday")
    made.append(premise)
    # a public rule resting on the secret premise, and one resting on a public premise
    made.append(add("Acme", "deploys_on", "Friday", valid_from="2024-01-01", sensitivity="public",
                    statement="Plumtree deploys on Friday", depends_on=[premise.fact_id]))
    # a conflict between a public established value and a secret challenger, and one between two public values
    made.append(add("Acme", "owned_by", "Plumtree Holdings", valid_from="2024-01-01", sensitivity="public",
                    statement="Plumtree Holdings owns Acme"))
    made.append(add("Acme", "owned_by", "Sablewing Holdings", valid_from="2024-03-01", sensitivity="secret",
                    statement="Sablewing Holdings owns Acme"))
    made.append(add("Acme", "hq_in", "Plumtree City", valid_from="2024-01-01", sensitivity="public",
                    statement="Plumtree City hosts Acme"))
    made.append(add("Acme", "hq_in", "Plumtree Town", valid_from="2024-03-01", sensitivity="public",
                    statement="Plumtree Town hosts Acme"))
    # a public value bounded where a secret one starts: it names the secret version nowhere (its bounded_by)
    made.append(add("Acme", "ceo", "Sablewing Boss", valid_from="2024-06-01", sensitivity="secret",
                    statement="Sablewing Boss leads Acme"))
    made.append(add("Acme", "ceo", "Plumtree Boss", valid_from="2024-01-01", sensitivity="public",
                    statement="Plumtree Boss leads Acme"))
    # a supersession: a public motto corrected into a secret one
    motto = add("Acme", "motto", "Plumtree motto", valid_from="2024-01-01", sensitivity="public",
                statement="Plumtree motto: ship it")
    made.append(motto)
    clock.at("2024-02-02")
    store.correct_fact(motto.fact_id, sensitivity="secret", statement="Sablewing motto: hide it")
    # the secret premise is corrected: the public rule goes stale, its cause must not quote the premise
    clock.at("2024-02-03")
    store.correct_fact(premise.fact_id, statement="Sablewing rule: deploy on Monday")
    # summaries derived from each sensitivity (a summary is as sensitive as its most sensitive input)
    for label, marker in MARKERS.items():
        fact = made[list(MARKERS).index(label)]
        world.summary_ids.append(store.add_summary(f"{marker} summary of the tool", derived_from=[fact.fact_id],
                                                   topic=f"{marker} topic").summary_id)
    # a read receipt serving versions of every sensitivity
    store.context("Acme", task=world.task)
    world.fact_ids = sorted({f.fact_id for f in made})
    for fact_id in world.fact_ids:
        for v in store.history(fact_id):
            world.version_ids.append(v.version_id)
            world.label_of[v.version_id] = v.sensitivity
    for summary_id, label in zip(world.summary_ids, MARKERS):
        world.label_of[store.summary(summary_id).version_id] = label
    for label in ("public", None):  # recipes carry their writer's label (or their outcome's, if stricter)
        writer = store.for_principal(Principal(tenant=store.tenant, clearance=label or "internal"))
        shown = writer.add_source("observation", f"the {MARKERS[label]} deploy worked")
        writer.record_recipe(f"deploy {MARKERS[label]}", [f"ship {MARKERS[label]}"], because=shown.source_id)
    store.set_tenant_flag("preference_validation", enabled=True)
    for label, marker in MARKERS.items():
        liked = add(f"Reader {marker}", "prefers", f"short answers {marker}", valid_from="2024-01-01",
                    sensitivity=label, object_is_entity=False, statement=f"Reader {marker} prefers short answers")
        world.preference_ids.append(liked.fact_id)
        world.version_ids.append(liked.version_id)
        world.label_of[liked.version_id] = liked.sensitivity
        for outcome in ["accepted"] * 10 + ["rejected"] * 5 if label == "secret" else ["accepted"]:
            store.preference_outcome(liked.fact_id, outcome)
    for label, marker in MARKERS.items():  # episodes of every label, each twice (a reflection proposes it)
        for _ in range(2):
            episode = add("Acme standup", "discussed", f"the {marker} plan", kind="episodic", sensitivity=label,
                          object_is_entity=False, statement=f"the standup discussed the {marker} plan")
            world.label_of[episode.version_id] = label
    # each level's facts wait in the human review queue, each statement beside its excerpt
    reviewed = Store(store._db, tenant=store.tenant, embedder=None, _clock=store._ctx.clock, _owns_db=False,
                     verifier=ReviewQueue())
    for fact in made[:len(MARKERS)]:
        reviewed.verify(fact.fact_id)
    return world


@pytest.fixture(scope="module")
def world(neo4j_db) -> World:
    from tests.conftest import Clock

    store = Store(neo4j_db, tenant=f"t_{uuid.uuid4().hex[:12]}", embedder=None, _clock=Clock(), _owns_db=False)
    return _build(store, store._ctx.clock)


def _context_field() -> str:
    from credo.schema.commands_recall import ContextQuery

    return "query" if "query" in ContextQuery.model_fields else "question_or_entity"


# every read operation of the registry, with the calls that cover it: an operation added to the registry without a
# row here fails test_every_read_operation_is_covered
CALLS: dict[str, Callable[[World], list[dict[str, Any]]]] = {
    "facts": lambda w: [{}, {"subject": "Acme"}, {"subject": "Sablewing Clinic"}, {"object": "Acme"},
                        {"predicate": "owned_by"}, {"subject": "Acme", "states": ALL_STATES},
                        {"subject": "Acme", "valid_at": "2024-06-01"}],
    "history": lambda w: [{"fact_id": f} for f in w.fact_ids],
    "chain": lambda w: [{"subject": "Acme", "predicate": p} for p in w.predicates],
    "relations": lambda w: [{"entity": e} for e in w.entities],
    "holders": lambda w: [{"predicate": "owned_by", "object": "Plumtree Holdings"},
                          {"predicate": "owned_by", "object": "Sablewing Holdings"},
                          {"predicate": "treats", "object": "Acme"}, {"predicate": "deploys_on", "object": "Friday"}],
    "path": lambda w: [{"a": "Acme", "b": b} for b in w.entities[1:]],
    "predicates": lambda w: [{}],
    "conflicts": lambda w: [{}, {"include_resolved": True}],
    "why": lambda w: [{"fact_id": i} for i in w.fact_ids + w.version_ids],
    "export_prov": lambda w: [{"fact_id": f} for f in w.fact_ids],
    "justifications": lambda w: [{"fact_id": f} for f in w.fact_ids],
    "summaries": lambda w: [{}, {"states": ALL_STATES}],
    "summary": lambda w: [{"summary_id": s} for s in w.summary_ids],
    "stale": lambda w: [{}],
    "search": lambda w: [{"query": q} for q in [*MARKERS.values(), "Acme tool", "Sablewing Clinic", "who owns Acme"]],
    "context": lambda w: [{_context_field(): q} for q in ["Acme", "Sablewing Clinic", "Sablewing Vault",
                                                         "what tool does Acme use", "Sablewing"]],
    "served_to": lambda w: [{"task": w.task}],
    "tasks_served": lambda w: [{"fact_id": i} for i in w.fact_ids + w.version_ids],
    "verify_forgotten": lambda w: [{"target_id": f} for f in w.fact_ids],
    "entity_versions": lambda w: [{"entity": e} for e in w.entities],
    "audit": lambda w: [{}],
    "verify_ledger": lambda w: [{}],
    "utility": lambda w: [{"fact_id": f} for f in w.fact_ids],
    "recipes": lambda w: [{"task_shape": f"deploy {m}"} for m in MARKERS.values()],
    "write_policy": lambda w: [{}, {"known_at": "2000-01-01"}],
    "preference": lambda w: [{"fact_id": f} for f in w.preference_ids],
    "review_queue": lambda w: [{}],
    "timeline": lambda w: [{"entity": "Acme standup"}, {"entity": "Acme standup", "from_": "2024-01-01"}],
    "diff": lambda w: [{"known_a": "2000-01-01", "known_b": "2099-01-01"},
                       {"known_a": "2000-01-01", "known_b": "2099-01-01", "subject": "Acme"},
                       {"known_a": "2024-02-01", "known_b": "2024-02-04"}],  # the correction and the stale rule
    "check_transition": lambda w: [{"known_before": "2000-01-01", "known_after": "2099-01-01"},
                                   {"known_before": "2024-02-01", "known_after": "2024-02-04"}],
    "write_policy_versions": lambda w: [{}, {"limit": 1}],
    "tenant_flags": lambda w: [{}, {"known_at": "2000-01-01"}],
}
# the ledger names ids of every act (auditors read it; it never holds content): its version ids are not checked
CONTENT_FREE = {"audit", "verify_ledger"}
# reads refused (Forbidden, field clearance) to every caller not cleared for all: the audit ledger's free-text reasons
CLEARED_FOR_ALL = {"audit"}
# reads that answer every version the caller may see of what they select (no ranking, no route picked)
COMPLETE = {"facts", "history", "chain", "relations", "holders", "stale", "entity_versions", "tasks_served",
            "served_to", "summaries", "summary", "timeline"}
READS = [op for op in OPERATIONS if op.http_method == "GET"]  # the reads: every GET route


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def _answer(store: Store, name: str, kwargs: dict[str, Any]) -> str | None:
    """The serialized answer (its echo of the caller's own arguments removed), or None for NotFound (and for a read
    only a caller cleared for all may make: the audit ledger)."""
    try:
        found = getattr(store, name)(**kwargs)
    except NotFound:
        return None
    except Forbidden as refused:
        if refused.field != "clearance" or name not in CLEARED_FOR_ALL:
            raise
        return None
    text = json.dumps(_plain(found), sort_keys=True)
    for value in kwargs.values():
        if isinstance(value, str):
            text = text.replace(json.dumps(value)[1:-1], "")
    return text


def _above(clearance: str) -> list[str]:
    return [m for label, m in MARKERS.items() if not can_see(clearance, label)]


def test_every_read_operation_is_covered():
    assert {op.name for op in READS} == set(CALLS), "give each read operation its calls in CALLS"


@pytest.mark.parametrize("clearance", [c for c in CLEARANCES if c != "all"])
def test_no_read_serves_content_above_the_callers_clearance(world, clearance):
    # given stores of each clearance over the tenant
    store = world.store.for_tenant(world.store.tenant, clearance=clearance)
    everyone = world.store
    leaks, missing = [], []
    for op in READS:
        for kwargs in CALLS[op.name](world):
            # when it calls the read
            answer = _answer(store, op.store_method, kwargs)
            if answer is None:
                continue
            # then no marker of a sensitivity above its clearance appears anywhere in the answer
            leaks += [f"{op.name}({kwargs}): {m}" for m in _above(clearance) if m.lower() in answer.lower()]
            # and every version it names is one it may see
            if op.name not in CONTENT_FREE:
                named = set(re.findall(r"\b(?:v|sv)_[0-9a-f]{20}\b", answer))
                leaks += [f"{op.name}({kwargs}): version {v} labelled {world.label_of.get(v)!r}"
                          for v in named if v in world.label_of and not can_see(clearance, world.label_of[v])]
            # and a complete read holds exactly what it may see of what a cleared-for-all caller gets
            if op.name in COMPLETE:
                full = _answer(everyone, op.store_method, kwargs) or ""
                expected = {v for v in re.findall(r"\b(?:v|sv)_[0-9a-f]{20}\b", full)
                            if can_see(clearance, world.label_of.get(v, "internal"))}
                got = set(re.findall(r"\b(?:v|sv)_[0-9a-f]{20}\b", answer))
                if got != expected:
                    missing.append(f"{op.name}({kwargs}): missing {sorted(expected - got)}, "
                                   f"extra {sorted(got - expected)}")
    assert not leaks, "\n".join(leaks)
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("clearance", list(CLEARANCES))
def test_a_conflict_is_listed_only_when_the_caller_may_see_both_sides(world, clearance):
    store = world.store.for_tenant(world.store.tenant, clearance=clearance)
    for resolved in (False, True):
        expected = [c.conflict_id for c in world.store.conflicts(include_resolved=resolved)
                    if can_see(clearance, c.challenger.sensitivity) and can_see(clearance, c.established.sensitivity)]
        assert [c.conflict_id for c in store.conflicts(include_resolved=resolved)] == expected
    # and the established value is disputed only where the conflict is listed
    [owner] = store.facts("Acme", "owned_by")
    assert owner.disputed is (clearance in ("secret", "all"))


@pytest.mark.parametrize("clearance", list(CLEARANCES))
def test_why_counts_what_it_withholds_so_the_totals_match_a_cleared_for_all_caller(world, clearance):
    store = world.store.for_tenant(world.store.tenant, clearance=clearance)
    for version_id in world.version_ids:
        if not can_see(clearance, world.label_of[version_id]):
            continue
        full, seen = world.store.why(version_id), store.why(version_id)
        # a withheld premise or supersession is counted, never named, and the verdicts do not change
        assert [len(j.premises) + j.withheld for j in seen.justifications] == [len(j.premises)
                                                                               for j in full.justifications]
        assert [j.holds for j in seen.justifications] == [j.holds for j in full.justifications]
        assert len(seen.supersedes) + seen.supersedes_withheld == len(full.supersedes)
        assert len(seen.superseded_by) + seen.superseded_by_withheld == len(full.superseded_by)


def test_a_public_rule_resting_on_a_secret_premise_says_a_premise_is_withheld(world):
    public = world.store.for_tenant(world.store.tenant, clearance="public")
    [rule] = [f for f in world.store.facts("Acme", "deploys_on", states=ALL_STATES)]
    tree = public.why(rule.fact_id)
    assert [(len(j.premises), j.withheld) for j in tree.justifications] == [(0, 1)]
    assert "1 premise withheld" in tree.text()
    # and its stale cause names the premise by id only, to every reader of the rule
    assert rule.state == "stale" and "Sablewing" not in (rule.stale_cause or "")
    assert rule.stale_cause and "withheld" in rule.stale_cause


@pytest.mark.parametrize("clearance", ["public", "internal", "confidential"])
def test_an_entity_known_only_through_secret_facts_is_not_found_like_a_missing_one(world, clearance):
    store = world.store.for_tenant(world.store.tenant, clearance=clearance)
    for read in (lambda name: store.relations(name), lambda name: store.entity_versions(name),
                 lambda name: store.path("Acme", name)):
        with pytest.raises(NotFound) as hidden:
            read("Sablewing Clinic")
        with pytest.raises(NotFound) as missing:
            read("Nobody Anywhere")
        assert str(hidden.value).replace("Sablewing Clinic", "?") == str(missing.value).replace("Nobody Anywhere", "?")


@pytest.mark.parametrize("clearance", ["public", "internal", "confidential"])
def test_a_summary_derived_from_a_secret_fact_is_as_secret_as_it(world, clearance):
    store = world.store.for_tenant(world.store.tenant, clearance=clearance)
    secret = world.summary_ids[list(MARKERS).index("secret")]
    assert secret not in {s.summary_id for s in store.summaries()}
    with pytest.raises(NotFound):
        store.summary(secret)
    assert secret not in {h.id for h in store.search("Sablewing summary").hits}
    assert secret in {h.id for h in world.store.search("Sablewing summary").hits}


def test_the_levels_of_each_clearance_are_what_can_see_says():
    # the Cypher rule (cypher/fragments/visible.cypher) and the Python rule agree on every clearance and label
    from credo.schema.search import query_levels

    labels = [*SENSITIVITY_ORDER, None, "Secret", "top-secret"]
    for clearance in CLEARANCES:
        levels = query_levels(clearance)
        for label in labels:
            in_cypher = "*" in levels or (label or "internal").lower() in levels
            assert in_cypher == can_see(clearance, label), (clearance, label)


@pytest.mark.parametrize("clearance", [c for c in CLEARANCES if c != "all"])
def test_the_audit_ledger_is_refused_below_clearance_all(world, clearance):
    with pytest.raises(Forbidden) as refused:
        world.store.for_tenant(world.store.tenant, clearance=clearance).audit()
    assert refused.value.field == "clearance"
