"""A key's clearance bounds every read on every surface: keys of each clearance against every read route of the
registry, every MCP read tool and every inspector page and JSON twin, over one tenant holding facts, premises,
summaries, conflicts, entities and read receipts of each sensitivity — no text above the clearance anywhere, and pages
that add up to the whole listing."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from mcp.client import Client

from credo.api.mcp.server import TOOLS, build_server
from credo.schema.api_keys import Principal
from credo.schema.operations import OPERATIONS, Operation
from credo.schema.search import SENSITIVITY_ORDER
from credo.services.access import api_keys
from credo.services.verify.review import ReviewQueue
from credo.store import Store

# one marker word per sensitivity: every text written at that level carries it, nothing else does
MARKERS = {"public": "Apple", "internal": "Birch", "confidential": "Cedar", "secret": "Dahlia"}
CLEARANCES = ["public", "internal", "confidential", "secret", "all"]


def hidden_from(clearance: str) -> list[str]:
    """The markers of the levels above `clearance`."""
    if clearance == "all":
        return []
    allowed = SENSITIVITY_ORDER[: SENSITIVITY_ORDER.index(clearance) + 1]
    return [m for level, m in MARKERS.items() if level not in allowed]


@dataclass
class World:
    """The tenant's contents, by level."""

    tenant: str
    facts: dict[str, str] = field(default_factory=dict)  # level -> fact id
    dependents: dict[str, str] = field(default_factory=dict)  # level of the premise -> a public dependent's id
    summaries: dict[str, str] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)
    preferences: dict[str, str] = field(default_factory=dict)  # level -> a preference fact's id (with outcomes)

    def ids(self) -> list[str]:
        return [*self.facts.values(), *self.dependents.values()]


@pytest.fixture(scope="module")
def world(neo4j_db) -> World:
    import uuid

    tenant = f"t_{uuid.uuid4().hex[:12]}"
    store = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False)
    store.define_predicate("owned_by", cardinality="single")
    made = World(tenant=tenant)
    for level, m in MARKERS.items():
        fact = store.add_fact(f"Project {m}", "owned_by", f"Owner {m}", valid_from="2024-01-01", sensitivity=level,
                              statement=f"Project {m} is owned by Owner {m}, codeword {m}fox")
        made.facts[level] = fact.fact_id
        # a public rule resting on this level's fact: its why must not show the premise's words
        dependent = store.add_fact("Release policy", "requires", f"approval {level}", valid_from="2024-01-01",
                                   sensitivity="public", object_is_entity=False,
                                   statement=f"Releases require approval (rule {level})", depends_on=[fact.fact_id])
        made.dependents[level] = dependent.fact_id
        made.summaries[level] = store.add_summary(f"Summary about Project {m}: {m}fox",
                                                  derived_from=[fact.fact_id]).summary_id
        rival = store.add_fact(f"Project {m}", "owned_by", f"Rival {m}", valid_from="2024-06-01", sensitivity=level,
                               statement=f"Project {m} is owned by Rival {m}")
        assert rival.state == "conflicted"
        store.context(f"Project {m}", task=f"task {level}")  # a read receipt that served this level's versions
    made.conflicts = [c.conflict_id for c in store.conflicts()]
    for level in ("public", "internal"):  # recipes carry their writer's label (or their outcome's, if stricter)
        writer = store.for_principal(Principal(tenant=tenant, clearance=level))
        shown = writer.add_source("observation", f"the deploy of Project {MARKERS[level]} worked")
        writer.record_recipe(f"deploy Project {MARKERS[level]}", [f"ship {MARKERS[level]}fox"], because=shown.source_id)
    reviewed = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False, verifier=ReviewQueue())
    for fact_id in made.facts.values():  # each level's fact waits in the review queue, its statement beside it
        reviewed.verify(fact_id)
    store.set_tenant_flag("preference_validation", enabled=True)  # preferences with posteriors, the secret one drifted
    for level, m in MARKERS.items():
        liked = store.add_fact(f"Reader {m}", "prefers", f"short answers {m}", valid_from="2024-01-01",
                               sensitivity=level, object_is_entity=False, statement=f"Reader {m} prefers short answers")
        made.preferences[level] = liked.fact_id
        for outcome in ["accepted"] * (10 if level == "secret" else 1) + ["rejected"] * (5 if level == "secret" else 0):
            store.preference_outcome(liked.fact_id, outcome)
    for level, m in MARKERS.items():  # episodes of every level, each twice (a reflection proposes it)
        for _ in range(2):
            store.add_fact("Standup", "discussed", f"the {m}fox plan", kind="episodic", sensitivity=level,
                           object_is_entity=False, valid_from="2024-02-01", statement=f"the standup discussed {m}fox")
    return made


def _keys(neo4j_db, tenant: str) -> dict[str, str]:
    return {c: api_keys.create_key(neo4j_db, tenant=tenant, clearance=c, scopes=["operator"]).secret
            for c in CLEARANCES}


@pytest.fixture(scope="module")
def keys(neo4j_db, world) -> dict[str, str]:
    return _keys(neo4j_db, world.tenant)


# -- how each read of the registry is called: every read operation must be listed (a new one fails here) -------
def _calls(w: World) -> dict[str, list[tuple[dict[str, str], dict[str, Any]]]]:
    """operation -> [(path parameters, query parameters)]"""
    projects = [f"Project {m}" for m in MARKERS.values()]
    owners = [f"Owner {m}" for m in MARKERS.values()]
    by_fact = [({"fact_id": i}, {}) for i in w.ids()]
    return {
        "facts": [({}, {}), *[({}, {"subject": p}) for p in projects], ({}, {"states": ["conflicted", "active"]})],
        "history": by_fact, "why": by_fact, "export_prov": by_fact, "justifications": by_fact,
        "tasks_served": by_fact, "utility": by_fact,
        "chain": [({}, {"subject": p, "predicate": "owned_by"}) for p in projects],
        "relations": [({"entity": n}, {}) for n in projects + owners],
        "entity_versions": [({"entity": n}, {}) for n in projects + owners],
        "holders": [({}, {"predicate": "owned_by", "object": o}) for o in owners],
        "path": [({}, {"a": p, "b": o}) for p, o in zip(projects, owners)],
        "predicates": [({}, {})],
        "conflicts": [({}, {}), ({}, {"include_resolved": "true"})],
        "summaries": [({}, {}), ({}, {"states": ["active", "stale"]})],
        "summary": [({"summary_id": s}, {}) for s in w.summaries.values()],
        "stale": [({}, {})],
        "diff": [({}, {"known_a": "2000-01-01", "known_b": "2100-01-01"}),
                 *[({}, {"known_a": "2000-01-01", "known_b": "2100-01-01", "subject": p}) for p in projects]],
        "search": [({}, {"query": q}) for q in ["codeword", "Project owned by", *projects]],
        "context": [({}, {"query": q}) for q in ["Who owns the projects?", *projects]],
        "served_to": [({"task": f"task {level}"}, {}) for level in MARKERS],
        "verify_forgotten": [({"target_id": i}, {}) for i in w.ids()[:2]],
        "audit": [({}, {})], "verify_ledger": [({}, {})],
        "recipes": [({}, {"task_shape": f"deploy Project {m}"}) for m in MARKERS.values()],
        "check_transition": [({}, {"known_before": "2000-01-01", "known_after": "2100-01-01"})],
        "review_queue": [({}, {})],
        "write_policy": [({}, {}), ({}, {"known_at": "2000-01-01"})],
        "preference": [({"fact_id": i}, {}) for i in w.preferences.values()],
        "timeline": [({}, {"entity": "Standup"}), ({}, {"entity": "Standup", "from_": "2024-01-01"})],
        "write_policy_versions": [({}, {}), ({}, {"limit": 1})],
        "tenant_flags": [({}, {}), ({}, {"known_at": "2000-01-01"})],
    }


READS = [op for op in OPERATIONS if op.http_method == "GET"]
CLEARED_FOR_ALL = {"audit"}  # refused (403, field clearance) to every key not cleared for all


def test_every_read_of_the_registry_is_in_the_matrix(world):
    assert {op.name for op in READS} - set(_calls(world)) == set()


def _url(op: Operation, params: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: params[m.group(1)], op.path)


def _leaks(answer: Any, clearance: str) -> list[str]:
    """The markers above `clearance` in an answer (JSON text or data), leaving out only the caller's own words echoed
    back: the `query` it sent (and a context package's heading, which repeats it), and the `detail` of a 404 that names
    what it asked for."""
    data = json.loads(answer) if isinstance(answer, str) else answer
    if isinstance(data, dict):
        heading = f"# Context: {data.get('query')}\n"
        data = {k: v.replace(heading, "", 1) if k == "markdown" and isinstance(v, str) else v
                for k, v in data.items() if k != "query" and not (k == "detail" and data.get("status") == 404)}
    text = json.dumps(data, ensure_ascii=False).lower()
    return [m for m in hidden_from(clearance) if m.lower() in text]


@pytest.mark.parametrize("clearance", CLEARANCES)
@pytest.mark.parametrize("op", READS, ids=[op.name for op in READS])
def test_rest_reads_never_serve_text_above_the_keys_clearance(api, world, keys, op, clearance):
    headers = {"X-API-Key": keys[clearance]}
    for path_params, query in _calls(world)[op.name]:
        answer = api.get(_url(op, path_params), params=query, headers=headers)
        if op.name in CLEARED_FOR_ALL and clearance != "all":  # the ledger's reasons are free text: clearance all
            assert (answer.status_code, answer.json()["field"]) == (403, "clearance"), answer.text
            continue
        assert answer.status_code in (200, 404), (op.name, path_params, query, answer.text)
        assert _leaks(answer.text, clearance) == [], (op.name, path_params, query, answer.text[:400])
        if op.paged and answer.status_code == 200:  # counts and pages consistent: limit 1 pages add up to the list
            whole = answer.json()["items"] + answer.json().get("undated", [])  # an as-of read's undated apart
            paged, cursor = [], None
            for _ in range(len(whole) + 2):
                page = api.get(_url(op, path_params), params={**query, "limit": 1,
                                                              **({"cursor": cursor} if cursor else {})},
                               headers=headers).json()
                paged += page["items"] + page.get("undated", [])
                cursor = page["next_cursor"]
                if not cursor:
                    break
            assert paged == whole, (op.name, query)


@pytest.mark.parametrize("clearance", CLEARANCES)
def test_a_fact_above_the_clearance_answers_exactly_like_a_missing_id(api, world, keys, clearance):
    headers = {"X-API-Key": keys[clearance]}
    hidden_levels = [lvl for lvl, m in MARKERS.items() if m in hidden_from(clearance)]
    missing = api.get("/v1/facts/f_00000000000000000000/why", headers=headers).json()
    for level in hidden_levels:
        theirs = api.get(f"/v1/facts/{world.facts[level]}/why", headers=headers).json()
        assert (theirs["status"], theirs["code"]) == (missing["status"], missing["code"]) == (404, "not_found")


def _tool_args(w: World) -> dict[str, list[dict[str, Any]]]:
    projects = [f"Project {m}" for m in MARKERS.values()]
    return {
        "facts_as_of": [{}, *[{"subject": p} for p in projects]],
        "who": [{"entity": p} for p in projects],
        "why": [{"fact_id": i} for i in w.ids()],
        "conflicts": [{}],
        "stale": [{}],
        "belief_diff": [{"known_a": "2000-01-01", "known_b": "2100-01-01"}],
        "search": [{"query": "codeword"}, *[{"query": p} for p in projects]],
        "context": [{"query": p} for p in projects],
        "verify_forgotten": [{"target_id": i} for i in w.ids()[:2]],
        "recipes": [{"task_shape": f"deploy Project {m}"} for m in MARKERS.values()],
        "check_transition": [{"known_before": "2000-01-01", "known_after": "2100-01-01"}],
        "preference": [{"fact_id": i} for i in w.preferences.values()],
        "timeline": [{"entity": "Standup"}],
        "reflect": [{"entity": "Standup"}],
    }


READ_TOOLS = [spec for spec in TOOLS if spec.op.scope == "read" or spec.op.name == "reflect"]  # reflect: read, logged


def test_every_mcp_read_tool_is_in_the_matrix(world):
    assert {spec.op.mcp for spec in READ_TOOLS} - set(_tool_args(world)) == set()


@pytest.mark.parametrize("clearance", CLEARANCES)
def test_mcp_read_tools_never_serve_text_above_the_keys_clearance(neo4j_db, world, clearance):
    base = Store(neo4j_db, tenant=world.tenant, embedder=None, _owns_db=False)
    server = build_server(base.for_principal, principal=Principal(tenant=world.tenant, clearance=clearance,
                                                                  key_id="k", actor="key:k"))
    calls = _tool_args(world)

    async def scenario():
        found = []
        async with Client(server) as client:
            for spec in READ_TOOLS:
                for args in calls[spec.op.mcp]:
                    result = await client.call_tool(spec.op.mcp, args)
                    found.append((spec.op.mcp, args, result.structured_content))
        return found

    for tool, args, answer in anyio.run(scenario):
        assert _leaks(answer, clearance) == [], (tool, args, str(answer)[:400])


# -- the inspector: every page and its JSON twin -------------------------------------------------------------------
def _pages(w: World) -> dict[str, list[tuple[str, dict[str, Any], list[str]]]]:
    """route path -> [(url, query, the caller's own words the page may echo)]"""
    from urllib.parse import quote

    names = [f"Project {m}" for m in MARKERS.values()]
    ids = w.ids()
    pages: dict[str, list[tuple[str, dict[str, Any], list[str]]]] = {
        "/ui/entities": [("/ui/entities", {}, []), *[("/ui/entities", {"q": n}, [n]) for n in names]],
        "/ui/entities/{entity:entity_name}": [(f"/ui/entities/{quote(n)}", {}, [n]) for n in names],
        "/ui/facts/{fact_id}": [(f"/ui/facts/{i}", {}, []) for i in ids],
        "/ui/queues": [("/ui/queues", {}, [])],
        "/ui/context": [("/ui/context", {"query": n}, [n]) for n in names],
        "/ui/forget": [("/ui/forget", {"target": i}, []) for i in [*ids, *w.summaries.values()]],
        "/ui/forget/{target_id}": [(f"/ui/forget/{i}", {}, []) for i in ids[:2]],
        "/ui/diff": [("/ui/diff", {"since": "2000-01-01"}, [])],
    }
    for path, calls in list(pages.items()):  # every page has its JSON twin
        twin = path.replace("{entity:entity_name}", "{entity:entity_name}.json").replace("{fact_id}", "{fact_id}.json")
        twin = twin.replace("{target_id}", "{target_id}.json")
        twin = twin if twin != path else path + ".json"
        pages[twin] = [(_twin(url), query, echo) for url, query, echo in calls]
    return pages


def _twin(url: str) -> str:
    return url + ".json"


def test_every_inspector_page_is_in_the_matrix(api, world):
    from fastapi.routing import APIRoute

    gets = {r.path for r in api.app.routes if isinstance(r, APIRoute) and r.path.startswith("/ui/") and "GET" in r.methods}
    assert gets - set(_pages(world)) - {"/ui/login"} == set()


@pytest.mark.parametrize("clearance", CLEARANCES)
def test_inspector_pages_and_twins_never_show_text_above_the_keys_clearance(api, world, keys, clearance):
    from tests.api.inspector.test_inspector_pages import csrf_of

    form = api.get("/ui/login")
    logged = api.post("/ui/login", data={"api_key": keys[clearance], "csrf": csrf_of(form.text)},
                      follow_redirects=False)
    assert logged.status_code == 303, logged.text
    listed = api.get("/ui/entities.json").text  # the pages do serve what the key may see ...
    assert all(m in listed for level, m in MARKERS.items() if m not in hidden_from(clearance))
    for route, calls in _pages(world).items():
        for url, query, echo in calls:
            answer = api.get(url, params=query)
            assert answer.status_code in (200, 404), (route, url, answer.status_code, answer.text[:300])
            text = answer.text
            for words in echo:  # the name or question the caller typed, shown back in the page's heading or input
                text = text.replace(words, "").replace(words.replace(" ", "%20"), "")
            leaked = [m for m in hidden_from(clearance) if m.lower() in text.lower()]
            assert leaked == [], (route, url, leaked, text[:300])
