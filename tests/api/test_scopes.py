"""Keys carry scopes: every operation of the registry refuses a key without its scope (403 `forbidden`, nothing
written) on every surface, because the Store itself checks it; presets for agents and curators; old keys keep what
they could do."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client import Client

from credo.api.mcp.server import TOOLS, build_server
from credo.schema.api_keys import PRESETS, SCOPES, ApiKey, Principal, parse_scopes
from credo.schema.errors import Forbidden, InvalidInput
from credo.schema.operations import OPERATIONS, Operation
from credo.services.access import api_keys
from credo.store import UNREGISTERED, Store
from tests.api.conftest import new_tenant

NAMES = [op.name for op in OPERATIONS]


class _Q:  # raw Cypher for the tests only
    def __init__(self, text: str) -> None:
        self.text = text


_COUNT = _Q("MATCH (n {tenant: $tenant}) OPTIONAL MATCH (n)-[r]-() RETURN count(DISTINCT n) AS nodes, "
            "count(DISTINCT r) AS rels")


def footprint(db, tenant: str) -> tuple[int, int]:
    """Nodes of the tenant and the relationships touching them."""
    row = db.query(_COUNT, tenant=tenant)[0]
    return row["nodes"], row["rels"]


def seeded(db, tenant: str) -> Store:
    """A tenant holding a fact, a conversation turn and a conflict, so any write would change its footprint."""
    store = Store(db, tenant=tenant, embedder=None, _owns_db=False)
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-03-01")
    store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "maria",
                                  "text": "Alice owns the Acme account.", "at": "2024-01-05T09:00:00Z"}])
    return store


def lacking(op: Operation) -> tuple[str, ...]:
    """Every scope but the one the operation needs."""
    return tuple(s for s in SCOPES if s != op.scope)


# -- the registry -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", OPERATIONS, ids=NAMES)
def test_every_operation_declares_one_known_scope(op: Operation):
    assert op.scope in SCOPES, f"{op.name} declares no scope (or an unknown one): {op.scope!r}"
    assert op.task_scope in (None, *SCOPES)


def test_every_public_store_method_is_an_operation_or_named_with_its_scope():
    registered = {op.store_method for op in OPERATIONS}
    public = {n for n in dir(Store) if not n.startswith("_") and callable(getattr(Store, n))}
    assert public - registered - set(UNREGISTERED) == set()
    assert all(getattr(getattr(Store, op.store_method), "__wrapped__", None) for op in OPERATIONS), \
        "every operation's Store method checks its scope"


@pytest.mark.parametrize("given, expected", [
    (None, ("read", "write")), (["agent"], ("read", "write")), (["curator"], ("read", "write", "curate", "forget")),
    (["operator"], SCOPES), (["admin"], ("admin",)), (["read,forget"], ("read", "forget")),
    (["reader", "write"], ("read", "write")),
])
def test_presets_and_scope_names_combine(given, expected):
    assert parse_scopes(given) == expected


@pytest.mark.parametrize("given", [["root"], ["read,sudo"], [""], [" , "]])
def test_an_unknown_or_empty_scope_is_refused(given):
    with pytest.raises(ValueError):
        parse_scopes(given)


def test_the_agent_preset_remembers_and_recalls_but_cannot_decide_correct_or_erase():
    agent = {op.name for op in OPERATIONS if op.scope in PRESETS["agent"]}
    assert {"ingest_messages", "remember", "facts", "why", "search", "context", "feedback"} <= agent
    assert not {"forget", "purge", "forget_tenant", "resolve_conflict", "correct_fact", "merge_entities",
                "import_facts", "maintain", "add_fact"} & agent


# -- the library: the Store checks, below every surface -------------------------------------------------------
def test_a_store_without_the_scope_refuses_before_writing(neo4j_db, tenant):
    store = seeded(neo4j_db, tenant)
    reader = store.for_principal(Principal(tenant=tenant, scopes=frozenset({"read"}), actor="key:test"))
    before = footprint(neo4j_db, tenant)
    with pytest.raises(Forbidden) as refused:
        reader.forget_tenant(reason="erase it all", actor="someone")
    assert refused.value.field == "scope"
    assert refused.value.rule.startswith("forget_tenant needs the 'admin' scope; this key has: read")
    with pytest.raises(Forbidden):
        reader.add_fact("Acme account", "owned_by", "Carol")
    with pytest.raises(Forbidden):
        reader.turn("s1")
    with pytest.raises(Forbidden):
        reader.search("Acme", task="t1")  # a read that records a receipt writes
    assert reader.search("Acme").hits is not None  # without a receipt it only reads
    assert footprint(neo4j_db, tenant) == before


def test_a_read_only_principal_can_never_commit_a_write_even_below_the_store(neo4j_db, tenant):
    from credo.services.facts import record as record_fact

    reader = seeded(neo4j_db, tenant).for_principal(Principal(tenant=tenant, scopes=frozenset({"read"})))
    with pytest.raises(Forbidden):
        record_fact.add_facts(reader._ctx, [record_fact.validate(subject="X", predicate="p", object="Y")])


# -- REST ---------------------------------------------------------------------------------------------------
def _path(op: Operation) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: {"entity": "Acme account"}.get(m.group(1), "f_0123456789abcdef"), op.path)


@pytest.mark.parametrize("op", OPERATIONS, ids=NAMES)
def test_rest_refuses_a_key_without_the_operations_scope_and_writes_nothing(api, neo4j_db, op):
    caller = new_tenant(neo4j_db, scopes=lacking(op))
    seeded(neo4j_db, caller.name)
    before = footprint(neo4j_db, caller.name)
    # a body that would pass validation or not: the scope is checked first
    answer = api.request(op.http_method, _path(op), headers=caller.headers,
                         json={"reason": "r", "actor": "a"} if op.http_method == "POST" else None)
    assert answer.status_code == 403, answer.text
    problem = answer.json()
    assert (problem["code"], problem["field"]) == ("forbidden", "scope") and op.scope in problem["rule"]
    assert footprint(neo4j_db, caller.name) == before


@pytest.mark.parametrize("name", ["search", "context"])
def test_rest_a_read_recording_a_receipt_needs_the_write_scope(api, neo4j_db, name):
    reader = new_tenant(neo4j_db, scopes=("read",))
    seeded(neo4j_db, reader.name)
    path, word = f"/v1/{name}", "query"
    assert api.get(path, params={word: "Acme account"}, headers=reader.headers).status_code == 200
    before = footprint(neo4j_db, reader.name)
    refused = api.get(path, params={word: "Acme account", "task": "t1"}, headers=reader.headers)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert footprint(neo4j_db, reader.name) == before


def test_an_agent_key_remembers_over_rest_but_cannot_erase_the_tenant(api, neo4j_db):
    agent = new_tenant(neo4j_db, scopes=("agent",))
    h = agent.headers
    api.post("/v1/sessions/s1/messages", headers=h, json={"messages": [
        {"index": 0, "role": "user", "origin": "human_input", "author": "maria",
         "text": "Alice owns the Acme account now.", "at": "2024-01-05T09:00:00Z"}]}).raise_for_status()
    made = api.post("/v1/sessions/s1/remember", headers=h, json={
        "quote": "Alice owns the Acme account", "content": "Alice owns the Acme account", "subject": "Acme account",
        "predicate": "owned_by", "object": "Alice"})
    assert made.status_code == 200 and made.json()["result"]["evidence"] == "stated", made.text
    before = footprint(neo4j_db, agent.name)
    erased = api.post("/v1/tenant/forget", headers=h, json={"reason": "gone", "actor": "agent"})
    assert (erased.status_code, erased.json()["code"]) == (403, "forbidden")
    assert footprint(neo4j_db, agent.name) == before


# -- MCP (the same Store, so the same refusal) ------------------------------------------------------------------
@pytest.mark.parametrize("spec", TOOLS, ids=[s.operation for s in TOOLS])
def test_mcp_refuses_a_key_without_the_tools_scope_and_writes_nothing(neo4j_db, tenant, spec):
    store = seeded(neo4j_db, tenant)
    caller = Principal(tenant=tenant, scopes=frozenset(lacking(spec.op)), key_id="k1", actor="key:k1")
    server = build_server(store.for_principal, principal=caller)
    before = footprint(neo4j_db, tenant)

    async def call():
        async with Client(server) as client:
            return await client.call_tool(spec.op.mcp, {"fact_id": "f_0123456789abcdef", "reason": "r"})

    result = anyio.run(call)
    assert result.is_error and result.structured_content["code"] == "forbidden", result.content
    assert footprint(neo4j_db, tenant) == before


# -- keys ---------------------------------------------------------------------------------------------------
_OLD_KEY = _Q("CREATE (k:ApiKey {key_id: $key_id, hash: $hash, tenant: $tenant, clearance: 'internal', "
              "name: 'old', created_at: datetime()}) RETURN k.key_id AS key_id")


def test_a_key_made_before_scopes_keeps_every_scope_and_keys_list_says_so(neo4j_db, tenant, cli_env):
    import secrets

    secret, key_id = "s" * 43, secrets.token_hex(8)
    neo4j_db.query(_OLD_KEY, write=True, key_id=key_id, hash=api_keys._digest(secret), tenant=tenant)
    who = api_keys.authenticate(neo4j_db, f"credo_{key_id}_{secret}")
    assert who.scopes == frozenset(SCOPES) and who.actor == f"key:{key_id}"
    listed = _credo(cli_env, "keys", "list")
    assert "all (made before scopes)" in listed
    [old] = json.loads(_credo(cli_env, "keys", "list", "--json"))
    assert old["scopes"] is None


def test_keys_are_made_with_scopes_and_a_known_clearance(neo4j_db, tenant, cli_env):
    made = json.loads(_credo(cli_env, "keys", "create", "--scope", "curator", "--clearance", "confidential",
                             "--json"))
    assert (made["scopes"], made["clearance"]) == (["read", "write", "curate", "forget"], "confidential")
    agent = json.loads(_credo(cli_env, "keys", "create", "--json"))
    assert agent["scopes"] == ["read", "write"]  # the default: an agent's key
    for bad, field in ((["--clearance", "topsecret"], "clearance"), (["--scope", "root"], "scope")):
        done = subprocess.run([_cli(), "keys", "create", *bad], env=cli_env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 1 and done.stderr.startswith(f"error: {field}:"), done.stderr
        assert "Traceback" not in done.stderr
    with pytest.raises(InvalidInput) as refused:
        api_keys.create_key(neo4j_db, tenant=tenant, clearance="topsecret")
    assert refused.value.field == "clearance"


def test_apikey_granted_is_every_scope_only_for_a_key_made_before_scopes():
    from datetime import datetime, timezone

    at = datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert ApiKey(key_id="a", tenant="t", clearance="public", created_at=at).granted == frozenset(SCOPES)
    assert ApiKey(key_id="a", tenant="t", clearance="public", scopes=("read",), created_at=at).granted == {"read"}


def _cli() -> str:
    return str(Path(sys.executable).parent / "credo")


def _credo(env: dict[str, str], *argv: str) -> str:
    done = subprocess.run([_cli(), *argv], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout
