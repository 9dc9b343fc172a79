"""A command a surface validated reaches its handler as it is: Store.handle checks the operation's scope and never
builds the command again (REST and MCP pass theirs here)."""

from __future__ import annotations

import pytest

import credo.store
import credo.store.gate
from credo.schema import commands as c
from credo.schema.api_keys import Principal
from credo.schema.errors import Forbidden, InvalidInput
from credo.schema.time import Point


def test_a_validated_command_is_handled_without_being_validated_again(store, monkeypatch):
    fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    cmd = c.build(c.EndFact, fact_id=fact.fact_id, at="2024-06-01")
    assert isinstance(cmd.at, Point) and cmd.at.precision == "day"

    def no_second_build(*args, **kwargs):
        raise AssertionError("the command was validated again")

    monkeypatch.setattr(credo.store, "build", no_second_build)
    ended = store.handle("end_fact", cmd)
    assert ended.valid_to == cmd.at.at and ended.valid_to_precision == "day"


def test_a_validated_remember_reaches_the_gate_without_being_validated_again(store, clock, monkeypatch):
    clock.at("2025-03-01T10:00:00+00:00")
    store.ingest_messages("s1", [
        {"index": 0, "role": "assistant", "origin": "agent", "author": "agent", "text": "Anything else?",
         "at": "2025-03-01T09:00:00+00:00"},
        {"index": 1, "role": "user", "origin": "human_input", "author": "alice", "text": "We deploy on Fridays.",
         "at": "2025-03-01T09:01:00+00:00"},
    ])
    cmd = c.build(c.Remember, session_id="s1", quote="We deploy on Fridays.", content="The team deploys on Fridays",
                  valid_from="2025-03")
    assert isinstance(cmd.valid_from, Point) and cmd.valid_from.precision == "month"

    def no_second_build(*args, **kwargs):
        raise AssertionError("the command was validated again")

    monkeypatch.setattr(credo.store, "build", no_second_build)
    monkeypatch.setattr(credo.store.gate, "build", no_second_build)
    fact = store.handle("remember", cmd)
    assert fact.quote == "We deploy on Fridays." and fact.evidence.value == "stated"
    assert fact.valid_from == cmd.valid_from.at and fact.valid_from_precision == "month"


def test_handle_checks_the_operations_scope_and_its_command_type(store):
    reader = store.for_principal(Principal(tenant=store.tenant, scopes=frozenset({"read"})))
    with pytest.raises(Forbidden):
        reader.handle("retract_fact", c.build(c.RetractFact, fact_id="f_1", reason="wrong"))
    with pytest.raises(InvalidInput):
        store.handle("end_fact", c.build(c.RetractFact, fact_id="f_1", reason="wrong"))


def test_every_operation_of_the_registry_takes_its_command():
    """Every operation's service entry point takes `(ctx, cmd)`, so REST and MCP hand over the command they
    validated and nothing validates a request twice."""
    from credo.schema.operations import OPERATIONS

    assert [op.name for op in OPERATIONS if op.name not in credo.store.HANDLERS] == []


def test_a_rest_body_is_validated_once_by_its_command(api, tenant_a, monkeypatch):
    # given a fact, and a count of the time values the command models parse
    from credo.schema import command_base

    made = api.post("/v1/facts", json={"subject": "Acme account", "predicate": "owned_by", "object": "Alice",
                                       "valid_from": "2024-01-01"}, headers=tenant_a.headers)
    assert made.status_code == 201, made.text
    parsed: list[object] = []
    real = command_base.point

    def counting(value, field):
        parsed.append(value)
        return real(value, field)

    monkeypatch.setattr(command_base, "point", counting)
    # when a POST body carrying a time is sent, then its time is parsed once (by the command, not by a body model too)
    ended = api.post(f"/v1/facts/{made.json()['result']['fact_id']}/end", json={"at": "2024-06-01"},
                     headers=tenant_a.headers)
    assert ended.status_code == 200, ended.text
    assert parsed == ["2024-06-01"]
