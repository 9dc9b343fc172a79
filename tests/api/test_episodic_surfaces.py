"""Episodic memory on every surface: REST (the timeline paged by cursor, roll-off needing the forget scope,
reflection; another tenant's key sees nothing), MCP (an agent reads a timeline and reflects; no roll-off tool) and the
CLI."""

from __future__ import annotations

import json

import anyio
from mcp.client import Client

from credo.api.mcp.server import build_server
from credo.services.access import api_keys
from tests.api.cli.test_cli import run
from tests.api.conftest import Tenant


def _episodes(api, headers, workflow: str = "chat") -> list[str]:
    made = []
    for day, what in ((1, "the build"), (2, "the build"), (3, "the tests")):
        r = api.post("/v1/facts", headers=headers, json={
            "subject": "nightly job", "predicate": "ran", "object": what, "object_is_entity": False,
            "kind": "episodic", "valid_from": f"2025-02-0{day}T02:00:00+00:00", "scope": {"workflow": workflow},
            "statement": f"the nightly job ran {what}"})
        assert r.status_code == 201, r.text
        made.append(r.json()["result"]["fact_id"])
    return made


def test_over_rest_the_timeline_pages_roll_off_forgets_and_reflection_proposes(api, tenant_a, tenant_b, neo4j_db):
    h = tenant_a.headers
    made = _episodes(api, h)
    # the timeline, one page of two then the rest by its cursor
    first = api.get("/v1/timeline", headers=h, params={"entity": "nightly job", "limit": 2})
    assert first.status_code == 200, first.text
    rest = api.get("/v1/timeline", headers=h, params={"entity": "nightly job", "limit": 2,
                                                      "cursor": first.json()["next_cursor"]})
    assert [f["fact_id"] for f in first.json()["items"] + rest.json()["items"]] == made
    assert rest.json()["next_cursor"] is None
    window = api.get("/v1/timeline", headers=h, params={"entity": "nightly job", "from_": "2025-02-02"})
    assert [f["fact_id"] for f in window.json()["items"]] == made[1:]
    # reflection proposes the build that ran twice, writing nothing semantic
    reflected = api.post("/v1/reflect", headers=h, json={"entity": "nightly job"})
    assert reflected.status_code == 200, reflected.text
    [proposal] = reflected.json()["proposals"]
    assert [e["fact_id"] for e in proposal["episodes"]] == made[:2]
    # another tenant's key sees no episode and reflects on none
    other = tenant_b.headers
    assert api.get("/v1/timeline", headers=other, params={"entity": "nightly job"}).json()["items"] == []
    assert api.post("/v1/reflect", headers=other, json={"entity": "nightly job"}).json()["episodes"] == 0
    # a reader's key may read but neither reflect (it records its run in the ledger) nor roll off
    reader = api_keys.create_key(neo4j_db, tenant=tenant_a.name, name="reader", scopes=["reader"])
    unread = api.post("/v1/reflect", headers={"X-API-Key": reader.secret}, json={"entity": "nightly job"})
    assert (unread.status_code, unread.json()["field"]) == (403, "scope")
    refused = api.post("/v1/episodes/roll-off", headers={"X-API-Key": reader.secret}, json={})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    # a roll-off at a future `now` (it would forget episodes before their TTL) is refused naming it
    future = api.post("/v1/episodes/roll-off", headers=h, json={"now": "2999-01-01T00:00:00+00:00"})
    assert (future.status_code, future.json()["field"]) == (422, "now"), future.text
    kept = api.get("/v1/timeline", headers=h, params={"entity": "nightly job"}).json()["items"]
    assert [f["fact_id"] for f in kept] == made
    # roll-off (chat: 24 h) forgets all three, each verified
    rolled = api.post("/v1/episodes/roll-off", headers=h, json={"now": "2025-02-05T00:00:00+00:00"})
    assert rolled.status_code == 200, rolled.text
    results = rolled.json()["result"]["forgotten"]
    assert sorted(r["target_id"] for r in results) == sorted(made)
    assert all(r["report"]["residue"] == [] for r in results), [r["report"]["residue"] for r in results]
    assert api.get("/v1/timeline", headers=h, params={"entity": "nightly job"}).json()["items"] == []
    bad = api.get("/v1/timeline", headers=h, params={"session": "s1", "entity": "nightly job"})
    assert (bad.status_code, bad.json()["field"]) == (422, "session")


def test_an_agent_reads_a_timeline_and_reflects_over_mcp(store):
    for day in (1, 2):
        store.add_fact("nightly job", "ran", "the build", kind="episodic", object_is_entity=False,
                       valid_from=f"2025-02-0{day}", statement="the nightly job ran the build")
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            timeline = await client.call_tool("timeline", {"entity": "nightly job", "from_": "2025-02-02"})
            reflected = await client.call_tool("reflect", {"entity": "nightly job"})
            refused = await client.call_tool("timeline", {})
            return tools, timeline, reflected, refused

    tools, timeline, reflected, refused = anyio.run(scenario)
    assert {"timeline", "reflect"} <= tools and "roll_off" not in tools
    [episode] = timeline.structured_content["items"]
    assert episode["valid_from"].startswith("2025-02-02")
    assert reflected.structured_content["proposer"] == "recurrence"
    assert len(reflected.structured_content["proposals"]) == 1
    assert refused.is_error and refused.structured_content["field"] == "session"


def test_the_cli_shows_a_timeline_reflects_and_rolls_off(cli_env, store):
    for day in (1, 2):
        store.add_fact("nightly job", "ran", "the build", kind="episodic", object_is_entity=False,
                       valid_from=f"2025-02-0{day}T02:00:00+00:00", statement="the nightly job ran the build",
                       scope={"workflow": "chat"})
    shown = run(["timeline", "--entity", "nightly job"], cli_env)
    assert shown.returncode == 0 and shown.stdout.count("the nightly job ran the build") == 2, shown.stderr
    reflected = run(["reflect", "--entity", "nightly job", "--json"], cli_env)
    assert reflected.returncode == 0, reflected.stderr
    assert json.loads(reflected.stdout)["proposals"][0]["statement"] == "the nightly job ran the build"
    rolled = run(["roll-off", "--now", "2025-02-02T12:00:00+00:00"], cli_env)
    assert rolled.returncode == 0 and "rolled off 1 episode(s)" in rolled.stdout, rolled.stdout + rolled.stderr
    assert run(["timeline", "--entity", "nightly job", "--json"], cli_env).stdout.count("fact_id") == 1


assert Tenant  # the tenants' shape (tests/api/conftest.py)
