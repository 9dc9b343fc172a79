"""Every operation of the registry exists on every surface: Store, REST route, MCP tool (or a reason), CLI (or a
reason), the HTTP client, and a README line — so no later operation can be forgotten on one surface."""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path

import pytest
from fastapi.routing import APIRoute

from credo.api.cli import _build_parser
from credo.api.rest import create_app
from credo.client import Client
from credo.schema.operations import OPERATIONS, Operation
from credo.settings import Settings
from credo.store import Store

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
NAMES = [op.name for op in OPERATIONS]


def routes_of(app) -> set[tuple[str, str]]:
    """(method, path) of every API route of the app."""
    return {(m, r.path) for r in app.routes if isinstance(r, APIRoute) for m in r.methods}


def missing_routes(app) -> list[str]:
    """Operations whose route is absent from the app."""
    have = routes_of(app)
    return [op.name for op in OPERATIONS if (op.http_method, op.path) not in have]


def cli_commands() -> set[str]:
    """Every `credo` command path, e.g. 'fact add', 'who'."""
    parser = _build_parser()
    found: set[str] = set()

    def walk(p, prefix: str) -> None:
        for action in p._actions:
            if action.__class__.__name__ == "_SubParsersAction":
                for name, child in action.choices.items():
                    path = f"{prefix} {name}".strip()
                    found.add(path)
                    walk(child, path)

    walk(parser, "")
    return found


@pytest.mark.parametrize("op", OPERATIONS, ids=NAMES)
def test_every_operation_has_a_store_method_and_a_client_method_with_the_same_name(op: Operation):
    assert callable(getattr(Store, op.store_method, None)), f"Store has no {op.store_method}"
    assert callable(getattr(Client, op.store_method, None)), f"credo.Client has no {op.store_method}"


def test_every_operation_has_a_route_in_the_app():
    app = create_app(Settings())
    assert missing_routes(app) == []


def test_removing_one_route_makes_the_parity_check_fail():
    app = create_app(Settings())
    victim = next(r for r in app.router.routes if isinstance(r, APIRoute) and r.name == "why")
    app.router.routes.remove(victim)
    assert missing_routes(app) == ["why"]


@pytest.mark.parametrize("op", OPERATIONS, ids=NAMES)
def test_every_operation_has_a_cli_command_or_a_stated_reason(op: Operation):
    if op.cli is None:
        assert op.cli_reason, f"{op.name}: no CLI command and no reason"
    else:
        assert op.cli in cli_commands(), f"{op.name}: `credo {op.cli}` does not exist"


@pytest.mark.parametrize("op", OPERATIONS, ids=NAMES)
def test_every_operation_has_an_mcp_tool_or_a_stated_reason(op: Operation):
    assert op.mcp or op.mcp_reason, f"{op.name}: no MCP tool and no reason"


def test_every_declared_mcp_tool_exists_on_the_mcp_server():
    if importlib.util.find_spec("credo.api.mcp.server") is None:
        pytest.xfail("credo.api.mcp.server is built on branch i10-mcp; its tool list is checked once merged")
    import asyncio

    from credo.api.mcp import server as mcp_server

    # contract with the MCP surface: `tool_names()` (sync or async), else an MCPServer at `server`/`mcp`
    if hasattr(mcp_server, "tool_names"):
        found = mcp_server.tool_names()
    else:
        server = getattr(mcp_server, "server", None) or getattr(mcp_server, "mcp")
        found = server.list_tools()
    if asyncio.iscoroutine(found):
        found = asyncio.run(found)
    tools = [getattr(t, "name", t) for t in found]
    declared = {op.mcp for op in OPERATIONS if op.mcp}
    assert declared <= set(tools), f"MCP tools missing: {sorted(declared - set(tools))}"


@pytest.mark.parametrize("op", OPERATIONS, ids=NAMES)
def test_every_operation_has_a_readme_line(op: Operation):
    assert re.search(rf"`{re.escape(op.store_method)}\(", README), f"README names no `{op.store_method}(`"
    assert f"{op.http_method} {op.path}" in README, f"README's REST section lacks `{op.http_method} {op.path}`"
    row = re.search(rf"^\| `{re.escape(op.http_method + ' ' + op.path)}` \| `{op.store_method}` \| (\w+)", README, re.M)
    assert row and row.group(1) == op.scope, f"README's route table names no scope `{op.scope}` for {op.name}"


# -- each Store method's signature is its command's fields ----------------------------------------------------
PYTHON_ONLY = {  # parameters only the Python API takes: objects no request can carry (a page window or a keyset
    # page, an adapter, a progress callback)
    "facts": {"window"}, "predicates": {"page"}, "summaries": {"page"}, "stale": {"page"}, "conflicts": {"page"}, "history": {"page"}, "served_to": {"page"}, "tasks_served": {"page"}, "extract": {"extractor"}, "add_summary": {"summarizer"}, "rebuild": {"summarizer"},
    "forget_subject": {"progress"}, "forget_tenant": {"progress"}, "forget_resume": {"progress"},
    "import_facts": {"progress"}, "review_queue": {"page"},
    "timeline": {"page"}, "reflect": {"extractor"}, "recipes": {"page"},
    "relations": {"page"},
}
OPTIONAL_AS_KEYWORDS = {  # the optional fields arrive through **fields: only those the caller gives are changes
    "correct_fact", "succeed_fact", "remember",
}
DEFAULT_DIFFERS = {  # the Store gives a default the command lacks, so the command names the missing field itself
    ("context", "query"): "None: an old name (question_or_entity) reaches the command, which refuses it with a hint",
}


def signature_drift(op: Operation, method) -> list[str]:
    """How `method`'s parameters differ from `op.command`'s fields: names, positional order, required-ness and
    defaults (empty when they agree)."""
    fields = op.command.model_fields
    params = [p for p in inspect.signature(method).parameters.values() if p.name != "self"]
    named = [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
             and p.name not in PYTHON_ONLY.get(op.name, set())]
    drift = [f"{p.name}: not a field of {op.command.__name__}" for p in named if p.name not in fields]
    absent = [name for name in fields if name not in {p.name for p in named}]
    rest = any(p.kind is p.VAR_KEYWORD for p in params) and op.name in OPTIONAL_AS_KEYWORDS
    drift += [f"{name}: no parameter" for name in absent if not (rest and not fields[name].is_required())]
    positional = [p.name for p in named if p.kind is p.POSITIONAL_OR_KEYWORD]
    if positional != list(fields)[:len(positional)]:
        drift.append(f"positional {positional}: not the command's leading fields {list(fields)[:len(positional)]}")
    for p in named:
        field = fields.get(p.name)
        if field is None or (op.name, p.name) in DEFAULT_DIFFERS:
            continue
        if field.is_required() != (p.default is p.empty):
            drift.append(f"{p.name}: {'required' if field.is_required() else 'optional'} in the command")
        elif not field.is_required() and field.get_default(call_default_factory=True) != p.default:
            drift.append(f"{p.name}: default {p.default!r}, the command's {field.default!r}")
    return drift


COMMANDED = [op for op in OPERATIONS if op.command is not None]


@pytest.mark.parametrize("op", COMMANDED, ids=[op.name for op in COMMANDED])
def test_every_store_signature_is_its_commands_fields(op: Operation):
    assert signature_drift(op, getattr(Store, op.store_method)) == []


def test_a_store_signature_that_drifts_from_its_command_fails_the_check():
    op = next(op for op in OPERATIONS if op.name == "end_fact")

    def renamed(self, fact_id, *, when):  # `at` renamed
        ...

    def defaulted(self, fact_id, *, at=None):  # `at` made optional
        ...

    def reordered(self, at, fact_id):  # positional order of the command swapped
        ...

    assert signature_drift(op, renamed) == ["when: not a field of EndFact", "at: no parameter"]
    assert signature_drift(op, defaulted) == ["at: required in the command"]
    assert signature_drift(op, reordered)[0].startswith("positional ['at', 'fact_id']")
