"""Every literal kind (text, int, float, a date at each precision) is written and read back with its own type and
value on every surface that takes an object - Store, REST, credo.Client over HTTP, the MCP remember tool, the CLI -
and never becomes an entity (issue 24 §8: a date object over REST became an entity named "2019-04-01")."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, timedelta, timezone, datetime

import anyio
import pytest
from mcp.client import Client as McpClient

import credo
from credo.api.mcp.server import build_server
from credo.cypher import Query
from credo.client import Client
from credo.schema.errors import InvalidInput
from credo.store import Store
from tests.api.conftest import new_tenant

# (id, the typed literal as JSON sends it, what Fact.value gives back in Python)
KINDS = [
    ("text", {"type": "string", "value": "move fast"}, "move fast"),
    ("int", {"type": "number", "value": 42}, 42),
    ("int-past-float-precision", {"type": "number", "value": 9007199254740993}, 9007199254740993),
    ("negative-int", {"type": "number", "value": -7}, -7),
    ("float", {"type": "number", "value": 2.5}, 2.5),
    ("integral-float", {"type": "number", "value": 42.0}, 42.0),
    ("year", {"type": "date", "value": "2019"}, "2019"),
    ("month", {"type": "date", "value": "2019-04"}, "2019-04"),
    ("day", {"type": "date", "value": "2019-04-01"}, date(2019, 4, 1)),
]
IDS = [k[0] for k in KINDS]
# the same literals as Python values (credo.Client and the Store take these; JSON cannot say "date" by itself)
NATIVE = {"text": credo.text("move fast"), "int": 42, "int-past-float-precision": 9007199254740993,
          "negative-int": -7, "float": 2.5, "integral-float": 42.0, "year": {"type": "date", "value": "2019"},
          "month": {"type": "date", "value": "2019-04"}, "day": date(2019, 4, 1)}

ENTITY_NAMES = Query("test_entity_names", "MATCH (e:Entity {tenant: $tenant}) RETURN e.name AS name", frozenset())


def same_literal(obj: dict, sent: dict, expected: object) -> None:
    """A fact's object as JSON (REST, MCP, CLI) is the literal sent: same type, same JSON value."""
    assert (obj["type"], obj["value"]) == (sent["type"], sent["value"])
    assert type(obj["value"]) is type(sent["value"])
    assert credo.ObjectValue.model_validate(obj).typed() == expected


def same_value(fact, sent: dict, expected: object) -> None:
    """A Fact (Store, Client) holds the literal sent with its Python type."""
    assert fact.object.type == sent["type"] and fact.object.entity_id is None
    assert fact.value == expected and type(fact.value) is type(expected)
    assert fact.object.model_dump(mode="json")["value"] == sent["value"]


def entity_names(db, tenant: str) -> set[str]:
    return {r["name"] for r in db.query(ENTITY_NAMES, tenant=tenant)}


# -- the Store -------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,sent,expected", KINDS, ids=IDS)
def test_the_store_writes_each_literal_and_reads_it_back_typed(store, neo4j_db, kind, sent, expected):
    for given in (sent, NATIVE[kind]):  # the typed mapping and the Python value alike
        written = store.add_fact("Acme", f"p_{kind}", given, valid_from="2024-01-01")
        same_value(written, sent, expected)
    [read] = store.facts("Acme", f"p_{kind}", valid_at="2024-06-01")  # the second restated the first
    same_value(read, sent, expected)
    [held] = store.holders(f"p_{kind}", sent, valid_at="2024-06-01")
    assert held.fact_id == read.fact_id
    assert entity_names(neo4j_db, store.tenant) == {"Acme"}


# -- REST --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,sent,expected", KINDS, ids=IDS)
def test_rest_writes_each_typed_literal_and_reads_it_back_with_its_type(api, tenant_a, neo4j_db, kind, sent,
                                                                        expected):
    made = api.post("/v1/facts", headers=tenant_a.headers,
                    json={"subject": "Acme", "predicate": "p", "object": sent, "valid_from": "2024-01-01"})
    assert made.status_code == 201, made.text
    same_literal(made.json()["result"]["object"], sent, expected)
    listed = api.get("/v1/facts", headers=tenant_a.headers, params={"subject": "Acme", "valid_at": "2024-06-01"})
    [item] = listed.json()["items"]
    same_literal(item["object"], sent, expected)
    # a literal in a query is JSON text; it finds the fact, as holders does
    by_object = api.get("/v1/facts", headers=tenant_a.headers,
                        params={"predicate": "p", "object": json.dumps(sent), "valid_at": "2024-06-01"})
    assert [i["fact_id"] for i in by_object.json()["items"]] == [item["fact_id"]]
    held = api.get("/v1/holders", headers=tenant_a.headers,
                   params={"predicate": "p", "object": json.dumps(sent), "valid_at": "2024-06-01"})
    assert [i["fact_id"] for i in held.json()["items"]] == [item["fact_id"]]
    assert entity_names(neo4j_db, tenant_a.name) == {"Acme"}


def test_rest_batch_correction_and_succession_keep_literal_types(api, tenant_a, neo4j_db):
    rows = [{"subject": "Acme", "predicate": f"p_{kind}", "object": sent} for kind, sent, _ in KINDS]
    made = api.post("/v1/facts/batch", headers=tenant_a.headers, json={"rows": rows})
    assert made.status_code == 201, made.text
    for fact, (_, sent, expected) in zip(made.json()["result"], KINDS):
        same_literal(fact["object"], sent, expected)
    founded = made.json()["result"][-1]["fact_id"]
    corrected = api.post(f"/v1/facts/{founded}/correct", headers=tenant_a.headers,
                         json={"object": {"type": "date", "value": "2019-05"}})
    assert corrected.status_code == 200, corrected.text
    assert corrected.json()["result"]["object"]["value"] == "2019-05"
    later = api.post(f"/v1/facts/{made.json()['result'][1]['fact_id']}/succeed", headers=tenant_a.headers,
                     json={"object": {"type": "number", "value": 43}, "at": "2025-01-01"})
    assert later.status_code == 200, later.text
    assert later.json()["result"]["object"] == {"type": "number", "value": 43, "entity_id": None}
    assert entity_names(neo4j_db, tenant_a.name) == {"Acme"}


@pytest.mark.parametrize("sent,field,rule", [
    ({"type": "text", "value": "a"}, "object.type", "text is 'string'"),
    ({"type": "date", "value": "2019-13"}, "object.value", "month must be in 1..12"),
    ({"type": "date", "value": "2019-04-01T10:00:00Z"}, "object.value", "instants belong in valid_from"),
    ({"type": "date", "value": 2019}, "object.value", "YYYY, YYYY-MM or YYYY-MM-DD"),
    ({"type": "number", "value": True}, "object.value", "a number literal is a number"),
    ({"type": "number", "value": "4x"}, "object.value", "not a number"),
    ({"type": "string", "value": "  "}, "object.value", "must not be empty"),
    ({"type": "string"}, "object.value", "is required"),
    ({"type": "date", "value": "2019", "unit": "year"}, "object.unit", "unknown field"),
    ({"type": "entity", "value": "Bob", "entity_id": "e_1"}, "object.entity_id", "assigned by the store"),
], ids=lambda v: json.dumps(v) if isinstance(v, dict) else None)
def test_a_bad_typed_literal_is_refused_naming_the_part_and_writes_nothing(api, tenant_a, store, sent, field, rule):
    answer = api.post("/v1/facts", headers=tenant_a.headers, json={"subject": "Acme", "predicate": "p", "object": sent})
    assert answer.status_code == 422 and answer.json()["field"] == field and rule in answer.json()["rule"]
    with pytest.raises(InvalidInput) as refused:
        store.add_fact("Acme", "p", sent)
    assert refused.value.field == field
    assert list(store.facts("Acme")) == []


def test_a_typed_entity_names_the_entity(api, tenant_a):
    made = api.post("/v1/facts", headers=tenant_a.headers,
                    json={"subject": "Acme", "predicate": "owned_by", "object": {"type": "entity", "value": "Bob"}})
    assert made.status_code == 201
    assert (made.json()["result"]["object"]["type"], made.json()["result"]["object_name"]) == ("entity", "Bob")


# -- credo.Client over HTTP -------------------------------------------------------------------------
def test_the_client_round_trips_every_literal_as_the_store_does(live_server, neo4j_db):
    tenant = new_tenant(neo4j_db)
    with Client(live_server.url, tenant.key) as client:
        for kind, sent, expected in KINDS:
            written = client.add_fact("Acme", f"p_{kind}", NATIVE[kind], valid_from="2024-01-01")
            same_value(written, sent, expected)
            [read] = client.facts("Acme", f"p_{kind}", valid_at="2024-06-01")
            same_value(read, sent, expected)
            [held] = client.holders(f"p_{kind}", NATIVE[kind], valid_at="2024-06-01")
            assert held.fact_id == read.fact_id
        day = client.facts("Acme", "p_day")[0]
        moved = client.succeed_fact(day.fact_id, object=date(2020, 1, 2), at="2025-01-01")
        assert moved.value == date(2020, 1, 2)
        batch = client.add_facts([{"subject": "Acme", "predicate": "opened", "object": date(2018, 3, 4)}])
        assert batch[0].value == date(2018, 3, 4)
    assert entity_names(neo4j_db, tenant.name) == {"Acme"}


# -- MCP: remember takes an object ------------------------------------------------------------------
@pytest.mark.usefixtures("semantic_logged")  # the gate and reads, not consent: remember serves at once (conftest.py)
def test_an_agent_remembers_typed_literals_over_mcp(store, clock, neo4j_db):
    clock.at("2024-05-01T10:00:00+00:00")
    text = "Acme: motto move fast, headcount 42, rating 2.5, founded 2019, listed 2019-04, moved 2019-04-01."
    at = datetime(2024, 5, 1, 9, 0, tzinfo=timezone.utc)
    server = build_server(store.for_principal, principal=store.principal)
    wanted = [(kind, sent, expected) for kind, sent, expected in KINDS
              if kind in ("text", "int", "float", "year", "month", "day")]

    async def scenario():
        async with McpClient(server) as client:
            added = await client.call_tool("add_messages", {"session_id": "s1", "messages": [
                {"index": 0, "role": "user", "origin": "human_input", "author": "ann", "text": text,
                 "at": (at + timedelta(minutes=1)).isoformat()}]})
            assert not added.is_error, added.content
            found = []
            for kind, sent, _ in wanted:
                made = await client.call_tool("remember", {
                    "session_id": "s1", "quote": text, "content": f"Acme {kind} is {sent['value']}",
                    "subject": "Acme", "predicate": f"p_{kind}", "object": sent})
                assert not made.is_error, made.content
                found.append(made.structured_content["result"]["object"])
            read = await client.call_tool("facts_as_of", {"subject": "Acme"})
            return found, {f["predicate"]: f["object"] for f in read.structured_content["undated"]}

    found, read = anyio.run(scenario)
    for obj, (kind, sent, expected) in zip(found, wanted):
        same_literal(obj, sent, expected)
        same_literal(read[f"p_{kind}"], sent, expected)
    assert entity_names(neo4j_db, store.tenant) == {"Acme"}


# -- the CLI ---------------------------------------------------------------------------------------
def test_the_cli_writes_typed_literals_and_lists_them_back(cli_env, neo4j_db, tenant):
    run = lambda *args: subprocess.run([sys.executable, "-m", "credo", *args], env=cli_env, capture_output=True,
                                       text=True, timeout=120)
    cases = [("text", "move fast", "--text"), ("int", "42", "--number"), ("float", "2.5", "--number"),
             ("year", "2019", "--date"), ("month", "2019-04", "--date"), ("day", "2019-04-01", "--date")]
    for kind, value, flag in cases:
        made = run("fact", "add", "Acme", f"p_{kind}", value, flag, "--json")
        assert made.returncode == 0, made.stderr
    listed = run("facts", "Acme", "--json")
    assert listed.returncode == 0, listed.stderr
    by_predicate = {f["predicate"]: f["object"] for f in json.loads(listed.stdout)}
    for kind, sent, expected in KINDS:
        if f"p_{kind}" in by_predicate:
            same_literal(by_predicate[f"p_{kind}"], sent, expected)
    assert len(by_predicate) == len(cases)
    month = run("facts", "--predicate", "p_month", "--object", "2019-04", "--date", "--json")
    assert [f["predicate"] for f in json.loads(month.stdout)] == ["p_month"]
    refused = run("fact", "add", "Acme", "p_bad", "2019-13", "--date")
    assert refused.returncode != 0 and "object.value" in refused.stderr
    assert entity_names(neo4j_db, tenant) == {"Acme"}


@pytest.mark.parametrize("kind,sent,expected", [k for k in KINDS if k[0] in ("text", "float", "year", "month", "day")],
                         ids=["text", "float", "year", "month", "day"])
def test_merging_two_versions_of_a_literal_claim_keeps_the_literal(store, neo4j_db, kind, sent, expected):
    store.define_predicate("noted", cardinality="multi")
    a = store.add_fact("Acme", "noted", sent, statement=f"Acme noted {kind}")
    b = store.add_fact("Acme", "noted", sent, valid_from="2022-01-01", statement=f"Acme wrote {kind} down")
    merged = store.merge_facts([a.fact_id, b.fact_id], statement=f"Acme recorded {kind}")
    same_value(merged, sent, expected)
    assert entity_names(neo4j_db, store.tenant) == {"Acme"}
