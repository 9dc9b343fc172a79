"""The MCP server: one tool per agent-facing operation, built from the operation's command model.

Every tool validates its arguments with the command model, acts on the store of the caller's tenant (from the API
key over HTTP, from the server's binding over stdio), and answers with a structured result. A failure is an
`isError` result whose structured content is the operation's problem document (code, field, rule), as over REST.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools.base import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from credo.api import mcp_commands as cmd
from credo.api.mcp_errors import problem, unauthenticated
from credo.schema.cascade import CascadeReport, StaleItem
from credo.schema.errors import CredoError, InvalidInput
from credo.schema.facts import Conflict, Fact, Relation
from credo.schema.provenance import WhyTree
from credo.schema.sources import Source
from credo.store import Store

StoreFor = Callable[[str], Store]
TENANT_STATE = "credo_tenant"  # the key the HTTP middleware sets in the ASGI scope's state

INSTRUCTIONS = (
    "Credo is a temporal knowledge store. Ingest each conversation turn with add_messages, then remember claims "
    "the human stated, quoting them verbatim. Read with facts_as_of and who; ask why a fact is held; keep "
    "knowledge honest with conflicts/resolve_conflict and stale/reverify."
)


# -- results -------------------------------------------------------------------------------------
class FactWrite(BaseModel):
    """A committed write: the resulting fact version and its cascade report (what went stale and why)."""

    fact: Fact
    cascade: CascadeReport | None = None


class Sources(BaseModel):
    """The stored messages, with their source ids."""

    sources: list[Source]


class Facts(BaseModel):
    """An as-of read: the dated answer, and apart from it the undated facts (start unknown: they may hold)."""

    facts: list[Fact]
    undated: list[Fact] = Field(default_factory=list)


class Who(BaseModel):
    """Relations of an entity, or holders of `predicate object`."""

    relations: list[Relation] = Field(default_factory=list)
    holders: list[Fact] = Field(default_factory=list)


class StaleItems(BaseModel):
    """Everything awaiting re-verification or a rebuild, oldest first."""

    items: list[StaleItem]


class Conflicts(BaseModel):
    """Writes kept but not applied."""

    conflicts: list[Conflict]


def _written(fact: Fact) -> FactWrite:
    return FactWrite(fact=fact, cascade=fact.cascade)


# -- operations ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ToolSpec:
    """One MCP tool: its name, command model, result model, what it does and the evidence it needs."""

    name: str
    command: type[BaseModel]
    result: type[BaseModel]
    run: Callable[[Store, Any], BaseModel]
    description: str
    read_only: bool = True


def _remember(store: Store, c: cmd.Remember) -> FactWrite:
    turn = store.turn(c.session_id, generation=c.generation, since=c.since)
    fields = c.model_dump(exclude={"session_id", "generation", "since", "quote", "content"})
    return _written(turn.remember(c.quote, c.content, **fields))


def _facts_as_of(store: Store, c: cmd.FactsQuery) -> Facts:
    found = store.facts(c.subject, c.predicate, c.object, valid_at=c.valid_at, known_at=c.known_at, scope=c.scope,
                        include_undated=True)
    return Facts(facts=[f for f in found if not f.undated], undated=[f for f in found if f.undated])


def _who(store: Store, c: cmd.WhoQuery) -> Who:
    if c.entity is not None:
        return Who(relations=store.relations(c.entity, valid_at=c.valid_at, known_at=c.known_at))
    return Who(holders=store.holders(c.predicate, c.object, valid_at=c.valid_at, known_at=c.known_at))


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "add_messages", cmd.AddMessages, Sources,
        lambda s, c: Sources(sources=s.ingest_messages(c.session_id, list(c.messages), generation=c.generation)),
        "Ingest the conversation turn before remembering from it: every message with its index in the session, "
        "role, origin (who wrote it: human_input / delivered_interjection are a human's words; agent, tool_result, "
        "system_event ... are not, whatever the role), author, text and time `at`. Messages are immutable evidence.",
        read_only=False),
    ToolSpec(
        "remember", cmd.Remember, FactWrite, _remember,
        "Remember a claim the human made in the current turn (the messages after the agent's last message). "
        "Evidence: `quote` must be copied verbatim (whitespace aside) from ONE human message of the current turn, "
        "ingested first with add_messages - no paraphrase, no synonyms, no stitching two messages; otherwise the "
        "call fails with code evidence_refused. Hedged quotes ('I guess', 'maybe', 'not confirmed yet') become "
        "hypotheses, never confirmed. `content` is the claim rewritten to be readable on its own. Leave valid_from "
        "unset unless the human said when it started. `replaces` corrects an earlier fact through the same gate. "
        "A claim that contradicts established knowledge is kept as conflicted, not applied.",
        read_only=False),
    ToolSpec(
        "facts_as_of", cmd.FactsQuery, Facts,
        _facts_as_of,
        "Facts valid at `valid_at` (world time) as believed at `known_at` (default: both now); no evidence needed. "
        "Each fact carries its evidence kind (stated / accepted / unknown), epistemic status (hypothesis / "
        "confirmed), state and whether it is disputed. Facts whose start is unknown come apart, under `undated`: "
        "they may hold at the point, nobody knows since when."),
    ToolSpec(
        "who", cmd.WhoQuery, Who, _who,
        "Who is who at a point: every relation of `entity` (both directions), or the holders of `predicate object` "
        "(e.g. predicate owned_by, object Alice). valid_at / known_at default to now; no evidence needed."),
    ToolSpec(
        "why", cmd.WhyQuery, WhyTree, lambda s, c: s.why(c.fact_id, known_at=c.known_at),
        "Why a fact is held: its evidence, every source with the verbatim quote and the message it came from "
        "(session, index, author), the accepting message, its premises and its supersessions. No evidence needed; "
        "ids of other tenants answer not_found like ids that do not exist."),
    ToolSpec(
        "stale", cmd.StaleQuery, StaleItems, lambda s, c: StaleItems(items=s.stale()),
        "What awaits re-verification (facts whose premises changed) or a rebuild (summaries), oldest first, each "
        "with its cause. No evidence needed."),
    ToolSpec(
        "reverify", cmd.Reverify, FactWrite,
        lambda s, c: _written(s.reverify(c.fact_id, outcome=c.outcome, evidence=c.evidence, note=c.note)),
        "Close a re-verification: holds (re-confirmed: give the new evidence - a source id, premise fact ids or a "
        "note saying who confirmed it), lapsed (its reason no longer applies; kept as history) or retracted (it "
        "was wrong). Conflicted facts are decided with resolve_conflict instead.",
        read_only=False),
    ToolSpec(
        "conflicts", cmd.ConflictsQuery, Conflicts, lambda s, c: Conflicts(conflicts=s.conflicts(
            include_resolved=c.include_resolved)),
        "Writes kept but not applied: each conflict names the challenger and the established version it "
        "contradicts. No evidence needed."),
    ToolSpec(
        "resolve_conflict", cmd.ResolveConflict, FactWrite,
        lambda s, c: _written(s.resolve_conflict(c.conflict_id, decision=c.decision, at=c.at, scope=c.scope,
                                                 reason=c.reason)),
        "Decide a conflict - an explicit act that needs a human's decision, never a guess from timestamps: "
        "succession (the world changed at `at`), correction (the established value was wrong), reject (the "
        "challenger is wrong; give a reason) or split_scope (both hold, in different `scope`s). The answer "
        "carries the cascade: what went stale because of it.",
        read_only=False),
)


# -- the server ----------------------------------------------------------------------------------
def build_server(store_for: StoreFor, *, tenant: str | None = None, name: str = "credo") -> MCPServer:
    """The MCP server; `store_for(tenant)` gives a tenant's store; `tenant` binds stdio / in-memory callers."""
    return MCPServer(name, instructions=INSTRUCTIONS, tools=[_tool(spec, store_for, tenant) for spec in TOOLS])


def caller_tenant(ctx: Context, default: str | None) -> str | None:
    """The tenant of this call: set by the API-key middleware over HTTP, else the server's binding."""
    request = ctx.request_context.request if ctx._request_context is not None else None
    if request is not None:  # over HTTP only the key decides, never a default
        return (request.scope.get("state") or {}).get(TENANT_STATE)
    return default


def _tool(spec: ToolSpec, store_for: StoreFor, default_tenant: str | None) -> Tool:
    def call(ctx: Context, **arguments: Any) -> Any:
        try:
            command = _validate(spec.command, arguments)
            tenant = caller_tenant(ctx, default_tenant)
            if tenant is None:
                return _error(unauthenticated())
            return spec.run(store_for(tenant), command)
        except CredoError as exc:
            return _error(problem(exc))

    call.__name__ = spec.name
    call.__signature__ = _signature(spec)  # type: ignore[attr-defined]
    tool = Tool.from_function(call, name=spec.name, description=spec.description, context_kwarg="ctx",
                              annotations=ToolAnnotations(read_only_hint=spec.read_only,
                                                          destructive_hint=False if spec.read_only else None))
    tool.parameters = spec.command.model_json_schema()  # what the agent sees: the command model itself
    return tool


def _signature(spec: ToolSpec) -> inspect.Signature:
    """Every command field as an optional pass-through argument: the command model does the validating, so its
    errors come back as problem documents rather than the SDK's argument errors."""
    params = [inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)]
    for name, info in spec.command.model_fields.items():
        annotation = str if info.annotation is str else Any  # str stays str: no JSON pre-parsing of text
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Annotated[annotation, Field(default=None)]))
    return inspect.Signature(params, return_annotation=spec.result)


def _validate(model: type[BaseModel], arguments: dict[str, Any]) -> BaseModel:
    """The command, or InvalidInput naming the first offending field and the rule it broke."""
    try:
        return model.model_validate({k: v for k, v in arguments.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or model.__name__
        raise InvalidInput(field, first["msg"]) from None


def _error(document: dict[str, Any]) -> CallToolResult:
    """A tool error: isError, the problem document as structured content and as the text."""
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(document, ensure_ascii=False))],
                          structured_content=document, is_error=True)
