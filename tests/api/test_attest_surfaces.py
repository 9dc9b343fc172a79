"""Who vouches for a human message, on the surfaces (services/gate/attest.py): with the tenant flag
`attested_human_messages` on, an agent's key sending human testimony is refused 403 naming `attest` and the flag,
nothing written, over REST and MCP; the harness's key (preset `harness`) sends it; and the agent quoting a message it
vouched for itself is refused over MCP."""

from __future__ import annotations

from datetime import datetime, timezone

import anyio
from mcp.client import Client

from credo.api.mcp.server import build_server
from credo.schema.api_keys import Principal
from credo.services.access import api_keys
from tests.api.conftest import Tenant, new_tenant
from tests.messages import messages

FLAG = "attested_human_messages"
CLAIM = "Ana leads the billing team"


_msg = messages(datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc), "ana", iso=True)


def _key(neo4j_db, tenant: str, preset: str) -> Tenant:
    made = api_keys.create_key(neo4j_db, tenant=tenant, name=preset, scopes=[preset])
    return Tenant(name=tenant, key=made.secret, key_id=made.key.key_id)


def test_over_rest_an_agent_key_sending_human_testimony_under_the_flag_is_refused_403(api, neo4j_db):
    operator = new_tenant(neo4j_db)
    agent, harness = _key(neo4j_db, operator.name, "agent"), _key(neo4j_db, operator.name, "harness")
    # flag off: the agent relays the person's turn, and the message names the key that vouched for it
    sent = api.post("/v1/sessions/s0/messages", headers=agent.headers, json={"messages": [_msg(0, "Hello.")]})
    assert sent.status_code == 200, sent.text
    assert sent.json()["result"][0]["attested_by"] == f"key:{agent.key_id}"
    # an agent's key may not set the flag; the operator's may
    flag = {"flag": FLAG, "enabled": True}
    assert api.post("/v1/tenant/flags", headers=agent.headers, json=flag).status_code == 403
    assert api.post("/v1/tenant/flags", headers=operator.headers, json=flag).status_code == 200
    # on: the agent's batch holding a human message is refused whole, naming attest and the flag
    batch = {"messages": [_msg(0, "Shall I note it?", "agent", "assistant", "agent"), _msg(1, CLAIM + ".")]}
    refused = api.post("/v1/sessions/s1/messages", headers=agent.headers, json=batch)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden"), refused.text
    assert "attest" in refused.json()["detail"] and FLAG in refused.json()["detail"]
    # nothing was written: the harness then writes the same positions, and its key vouches for the human one
    taken = api.post("/v1/sessions/s1/messages", headers=harness.headers, json=batch)
    assert taken.status_code == 200, taken.text
    assert [m.get("attested_by") for m in taken.json()["result"]] == [None, f"key:{harness.key_id}"]


def test_over_mcp_the_agent_is_refused_human_testimony_and_its_own_vouched_quote(store, neo4j_db, clock):
    clock.at("2025-03-01T09:00:00Z")
    agent = Principal.of_key(api_keys.create_key(neo4j_db, tenant=store.tenant, name="agent", scopes=["agent"]).key)
    before = store.for_principal(agent).ingest_messages("s0", [_msg(0, CLAIM + " since May.")])  # flag off
    store.set_tenant_flag(FLAG, enabled=True)
    server = build_server(store.for_principal, principal=agent)

    async def scenario():
        async with Client(server) as client:
            sent = await client.call_tool("add_messages", {"session_id": "s1", "messages": [_msg(0, CLAIM + ".")]})
            quoted = await client.call_tool("remember", {"session_id": "s0", "quote": CLAIM, "content": CLAIM})
            return sent, quoted

    sent, quoted = anyio.run(scenario)
    assert sent.is_error and sent.structured_content["code"] == "forbidden", sent.content
    assert FLAG in sent.structured_content["detail"] and "attest" in sent.structured_content["detail"]
    assert quoted.is_error and quoted.structured_content["field"] == "quote", quoted.content
    assert before[0].source_id in quoted.structured_content["detail"]
