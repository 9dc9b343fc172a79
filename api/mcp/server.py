"""The MCP server: one tool per agent-facing operation, built from the operation's command model.

Every tool validates its arguments with the command model, acts on the store of the caller's principal (from the API
key over HTTP, checked again on every stdio call), and answers with a structured result; the Store checks the
operation's scope and the principal's clearance bounds every read. A failure is an
`isError` result whose structured content is the operation's problem document (code, field, rule), as over REST.
"""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools.base import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, ValidationError

from credo.api import pages
from credo.api.problems import problem_for
from credo.api.rest.routes import Written
from credo.schema.api_keys import Principal
from credo.schema.cascade import StaleItem
from credo.schema.consent import ConsentResult, Remembered
from credo.schema.commands import Command, invalid_input
from credo.schema.context_package import ContextPackage
from credo.schema.diff import BeliefDiff
from credo.schema.transition import TransitionReport
from credo.schema.errors import CredoError, InvalidInput, Unauthenticated
from credo.schema.facts import AsOf, AsOfAnswer, Conflict, Fact, Relation
from credo.schema.operations import BY_NAME, Operation
from credo.schema.preferences import Preference
from credo.schema.provenance import WhyTree
from credo.schema.recipes import Recipe
from credo.schema.episodic import Reflection
from credo.schema.search import SearchResult
from credo.schema.forget import ForgetResult, ResidueReport
from credo.schema.sources import Source
from credo.schema.utility import MemoryUsage
from credo.store import Store

log = logging.getLogger("credo.mcp")
StoreFor = Callable[[Principal], Store]  # the caller's principal -> its store handle (Runtime.store_for)
Local = Principal | Callable[[], Principal] | None  # who stdio / in-memory calls act as (a callable: asked each call)
PRINCIPAL_STATE = "credo_principal"  # where the HTTP middleware puts the caller's Principal in the ASGI scope state

INSTRUCTIONS = (
    "Credo is a temporal knowledge store. Ingest each conversation turn with add_messages, then remember claims "
    "the human stated, quoting them verbatim; when remember answers a `surface` line, show it to the person and "
    "relay their answer with consent. Read with context (current / historical / open), facts_as_of "
    "and who; ask why a fact is held; keep knowledge honest with conflicts/resolve_conflict and stale/reverify."
)


# -- results -------------------------------------------------------------------------------------
class StaleItems(BaseModel):
    """One page of what awaits re-verification or a rebuild, oldest first; `next_cursor` (null on the last) goes on."""

    items: list[StaleItem]
    next_cursor: str | None = None


class Conflicts(BaseModel):
    """One page of the writes kept but not applied, oldest first; `next_cursor` (null on the last) goes on."""

    conflicts: list[Conflict]
    next_cursor: str | None = None


class Recipes(BaseModel):
    """One page of the live recipes of a task shape, best first; `next_cursor` (null on the last) goes on."""

    items: list[Recipe]
    next_cursor: str | None = None


class Episodes(BaseModel):
    """One page of the episodes of a session or an entity, in time order; `next_cursor` (null on the last) goes on."""

    items: list[Fact]
    next_cursor: str | None = None


def _written(fact: Fact) -> Written[Fact]:
    """A write's answer, as over REST: the new version (`result`) and its cascade report."""
    return Written[Fact](result=fact, cascade=fact.cascade)


# -- operations ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ToolSpec:
    """How an operation of the registry answers as an MCP tool: its result shape and what evidence it needs."""

    operation: str  # a name in `credo.schema.operations.BY_NAME`; the tool's name and command come from there
    result: type[BaseModel]
    shape: Callable[[Any], BaseModel]  # the Store method's return value -> the result
    description: str
    fixed: dict[str, Any] = field(default_factory=dict)  # command fields the tool sets itself and does not offer
    paged: bool = False  # answers one page (`limit`, `cursor`; api/pages.py `keyset_read`), cut in the Store's query

    @property
    def op(self) -> Operation:
        """The registry entry."""
        return BY_NAME[self.operation]


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "ingest_messages", Written[list[Source]], lambda found: Written[list[Source]](result=found),
        "Ingest the conversation turn before remembering from it: every message with its index in the session, "
        "role, origin (who wrote it: human_input / delivered_interjection are a human's words; agent, tool_result, "
        "system_event ... are not, whatever the role), author, text and time `at`. Messages are immutable evidence. "
        "Each human message records the key that vouched for it; when the tenant flag attested_human_messages is on, "
        "only a key with the `attest` scope (the harness that receives the person's input) may send human_input or "
        "delivered_interjection (403 otherwise, nothing written): send only your own side of the conversation, and "
        "you cannot quote or consent with a human message your own key vouched for."),
    ToolSpec(
        "remember", Written[Remembered], lambda fact: Written[Remembered](result=fact, cascade=fact.cascade),
        "Remember a claim the human made in the current turn (the messages after the agent's last message). "
        "Evidence: `quote` must be copied verbatim (whitespace and Unicode normalisation aside, case counts) from ONE "
        "human message of the current turn, ingested first with add_messages - no paraphrase, no synonyms, no "
        "stitching two messages. If several messages hold it, the latest one counts. The quote must state, not ask: "
        "a question (ending in '?' or '吗', rhetorical ones too) is refused - quote a statement. The quote must "
        "carry the claim: a `subject` or `object` you give must be named in it (the speaker may be the subject: 'I "
        "prefer tea' backs a claim about its author), every name and number in `content` must be in it, and more "
        "than half of content's words - 'Alice' cannot back 'Alice was fired for fraud'. A refusal is a tool error "
        "with code evidence_refused, the field (quote, subject, object or content) and the missing words. Hedged "
        "quotes ('I guess', 'maybe', 'not confirmed yet') become hypotheses; the same claim later stated plainly by "
        "a human is confirmed, keeping both quotes. `content` is the claim rewritten to be readable on its own, "
        "saying no more than the quote. Leave valid_from unset unless the human said when it started. `replaces` "
        "corrects an earlier fact through the same gate; when surfaced, the correction waits for consent like any "
        "other (a candidate of its own naming the fact in `replaces`; the earlier fact keeps serving until the "
        "person accepts). A claim that contradicts established knowledge is kept as "
        "conflicted, not applied. When the answer has `surface` (the tenant surfaces such writes: the default), the "
        "fact is NOT served yet: show the person that line ('I will remember that: ...') and relay their answer "
        "with consent (accept with the id of their message saying yes, or delete)."),
    ToolSpec(
        "facts", AsOfAnswer[Fact], lambda page: AsOf(page.items, page.unreadable).answer(page.next_cursor),
        "Facts valid at `valid_at` (world time) as believed at `known_at` (default: both now); no evidence needed. "
        "Each fact carries its evidence kind (stated / accepted / unknown), epistemic status (hypothesis / "
        "confirmed), state and whether it is disputed. The dated answer is `items`; facts whose start is unknown come "
        "apart, under `undated`: they may hold at the point, nobody knows since when. `unreadable` names stored "
        "versions skipped. One page of at most `limit` (default 50, at most 200); pass `next_cursor` as `cursor` "
        "for the next.",
        fixed={"include_undated": True}, paged=True),  # undated facts come apart in the answer, never dropped
    ToolSpec(
        "relations", AsOfAnswer[Relation], lambda page: AsOf(page.items, page.unreadable).answer(page.next_cursor),
        "Who is who at a point: every relation of `entity` in both directions (direction out: the entity is the "
        "subject; in: it is the object - e.g. the relations of Alice include 'Acme account owned_by Alice'). "
        "The dated answer is `items`; relations whose start is unknown come apart, under `undated` (they may "
        "hold). valid_at / known_at default to now. One page of at most `limit` (default 50, at most 200); pass "
        "`next_cursor` as `cursor` for the next. No evidence needed.", paged=True),
    ToolSpec(
        "context", ContextPackage, lambda package: package,
        "What the store knows about `query` (a question or an entity's name), in three parts - read this before "
        "acting. current: "
        "served, valid at `valid_at` and believed at `known_at` (default now), supported; historical: what no "
        "longer applies, each with end_kind, ended_at, superseded_by and reason; open: conflicts, stale items, "
        "hypotheses, candidates, undated facts, each with its cause and what is `unknown` - never treat them as "
        "current. Every item has its evidence kind, sources (verbatim quote, session, message index) and "
        "verified_at. `markdown` is a prompt-ready rendering within `budget_tokens` (about 4 characters a token), "
        "current first; it says when it left items out. Pass `task` (your task's label) to record what you were "
        "served. No evidence needed."),
    ToolSpec(
        "why", WhyTree, lambda tree: tree,
        "Why a fact is held: its evidence, every source with the verbatim quote and the message it came from "
        "(session, index, author), the accepting message, its premises and its supersessions. No evidence needed; "
        "ids of other tenants answer not_found like ids that do not exist."),
    ToolSpec(
        "stale", StaleItems, lambda page: StaleItems(items=page.items, next_cursor=page.next_cursor),
        "What awaits re-verification (facts whose premises changed) or a rebuild (summaries), oldest first, each "
        "with its cause. One page of at most `limit` (default 50, at most 200); pass `next_cursor` as `cursor` for "
        "the next. No evidence needed.", paged=True),
    ToolSpec(
        "diff", BeliefDiff, lambda found: found,
        "What changed in what the store believes between two known times: `known_a` (excluded, e.g. when you "
        "last looked) and `known_b` (included, e.g. now), oldest change first; `subject` or `scope` narrow it. Each "
        "change has its kind - added, corrected (before -> after), superseded (with the successor), ended, "
        "retracted (with the reason), merged, conflict_opened / conflict_resolved, state_changed, stale (with its "
        "cause: the premise that changed) or forgotten (only the id and when: never its content) - and the known "
        "time `at` of the write that made it. No evidence needed."),
    ToolSpec(
        "reverify", Written[Fact], _written,
        "Close a re-verification: holds (re-confirmed: give the new evidence - a source id, premise fact ids or a "
        "note saying who confirmed it), lapsed (its reason no longer applies; kept as history) or retracted (it "
        "was wrong). Conflicted facts are decided with resolve_conflict instead."),
    ToolSpec(
        "conflicts", Conflicts, lambda page: Conflicts(conflicts=page.items, next_cursor=page.next_cursor),
        "Writes kept but not applied, oldest first: each conflict names the challenger and the established version "
        "it contradicts. One page of at most `limit` (default 50, at most 200); pass `next_cursor` as `cursor` for "
        "the next. No evidence needed.", paged=True),
    ToolSpec(
        "resolve_conflict", Written[Fact], _written,
        "Decide a conflict - an explicit act that needs a human's decision, never a guess from timestamps: "
        "succession (the world changed at `at`), correction (the established value was wrong), reject (the "
        "challenger is wrong; give a reason) or split_scope (both hold, in different `scope`s). The answer "
        "carries the cascade: what went stale because of it."),
    ToolSpec(
        "search", SearchResult, lambda found: found,
        "Search memory with a natural-language question: facts (statement and quote), entities (names, aliases) "
        "and summaries, found by full text, by meaning (vectors) and through the entities the question names, "
        "fused by reciprocal rank. Only what may be served comes back: current, valid at `valid_at` (default now) "
        "as believed at `known_at`, within your key's clearance; `scope`, `kinds` (fact / entity / summary or a "
        "memory kind) and `limit` narrow it. Each hit says which paths found it, with its rank and score, and is "
        "marked hypothesis / candidate / undated / disputed when it is not established knowledge - say so when "
        "you use it. Nothing found is an answer: meaning alone never returns a fact far from the question. Pass "
        "`task` (your task's label) to record what you were served (`served_to`)."),
    ToolSpec(
        "forget", ForgetResult, lambda found: found,
        "Forget an id when the person it concerns asks to be forgotten: a fact (every version), a source (a "
        "message or document: the facts it alone evidenced go too), an entity (and every fact naming it) or a "
        "summary. Give the person's `reason` and the `actor` acting for them. The content leaves every place in "
        "the store; earlier reads show a tombstone. The answer is the residue report (complete = nothing left) "
        "and what the store cannot erase itself (transaction logs, backups)."),
    ToolSpec(
        "verify_forgotten", ResidueReport, lambda found: found,
        "Check a forgotten id: every place inside the store still holding its content (complete only when none) "
        "and the copies outside it (transaction logs until they rotate, backups). No evidence needed."),
    ToolSpec(
        "feedback", MemoryUsage, lambda usage: usage,
        "After a task, say whether a memory a read receipt served helped: useful (+1.0) or harmful (-2.0, it "
        "misled). This re-classifies that recall (counted neutral when served); it is not an extra vote, so "
        "repeating a verdict changes nothing. Say unknown when you cannot tell: it is logged and changes nothing. "
        "Answers the memory's tier and net utility."),
    ToolSpec(
        "record_recipe", Written[Recipe], lambda recipe: Written[Recipe](result=recipe),
        "When a task succeeded, record how you did it so the next task of its shape can reuse it: `task_shape` "
        "names the kind of task in words (case, spacing, punctuation and word order do not matter; no one-off "
        "values), `steps` the short steps in order. Evidence: `because` must be the id of a recorded source that "
        "shows the success - a tool_result or an observation (add_source), never a conversation message alone; a "
        "missing one or one of another kind is refused as evidence_refused naming `because`. Set `user_facing` when "
        "a person will see it done this way: it is then served only after they consent."),
    ToolSpec(
        "recipe_outcome", Written[Recipe], lambda recipe: Written[Recipe](result=recipe),
        "After using a recipe, say how it went: success or failure update its success rate (smoothed: (successes "
        "+ 1) / (uses + 2)); a recipe whose rate stays below 0.5 over 10 uses retires and is never served again. "
        "Say unknown when you cannot tell: it is logged and changes nothing."),
    ToolSpec(
        "recipes", Recipes, lambda page: Recipes(items=page.items, next_cursor=page.next_cursor),
        "Before a task, ask how tasks of its shape were done here: the live recipes of `task_shape`, best first "
        "(by success rate, then uses), each with its steps, uses, successes, rate and the source it was earned "
        "by. Retired, declined and not yet consented recipes are never served. One page of at most `limit` (default "
        "50, at most 200); pass `next_cursor` as `cursor` for the next. No evidence needed.", paged=True),
    ToolSpec(
        "check_transition", TransitionReport, lambda found: found,
        "Check your own writes as changes: give `known_before` (just before you wrote) and `known_after` (now). It "
        "answers coverage (did each write change what it asked: its ledger event, the fact and version it named), "
        "preservation (did anything change that no write of the window explains) and faithfulness (is each added "
        "or corrected version grounded in a quote, a source or an acceptance; `strict`: an ungrounded one fails), "
        "each with `ok` and its findings; `withheld` counts what you are not cleared to see. No evidence needed."),
    ToolSpec(
        "preference_outcome", Written[Preference], lambda found: Written[Preference](result=found),
        "After acting on a remembered preference (a fact with predicate preference, prefers, likes or dislikes), "
        "say how it went: accepted (the person went along: alpha + 1), rejected (not this time: beta + 1), revoked "
        "(the person took the preference back: beta + 5, a heavy penalty). Say unknown when you cannot tell: it is "
        "logged and changes nothing. Answers the preference's Beta posterior (alpha, beta, strength). Refused as "
        "not_configured while the tenant has not turned preference validation on."),
    ToolSpec(
        "preference", Preference, lambda found: found,
        "How well a remembered preference has held up when acted on: its Beta posterior (alpha, beta, strength = "
        "alpha / (alpha + beta), a lower bound), the outcomes counted, the last few, and the drift item open for a "
        "person when recent outcomes left the long-term view. Refused as not_configured while the tenant has not "
        "turned preference validation on. No evidence needed."),
    ToolSpec(
        "timeline", Episodes, lambda page: Episodes(items=page.items, next_cursor=page.next_cursor),
        "What happened, in time order: the episodes (facts of kind episodic) of one `session` (stated in its "
        "messages) or of one `entity` (about it), within [from_, to): each placed at its valid_from (an undated one "
        "at its known time), then by known time. A scan by time, not a search by relevance. One page of at most "
        "`limit` (default 50, at most 200); pass `next_cursor` as `cursor` for the next. No evidence needed.",
        paged=True),
    ToolSpec(
        "reflect", Reflection, lambda found: found,
        "Reflect on the episodes of a `session` or an `entity` within [from_, to): returns semantic candidates "
        "(statement, subject, predicate, object, the episodes and their quotes) and writes nothing but a note that "
        "it ran. A candidate becomes a fact only through the gate: remember it with the verbatim quote of the "
        "human message it rests on."),
    ToolSpec(
        "consent", ConsentResult, lambda found: found,
        "Relay the person's answer to a line remember gave you to show ('I will remember that: ...'; the fact waits, "
        "listed in context's open part as awaiting_consent, and is never served until they answer). decision accept: "
        "give `message_id`, the id of their message saying yes - by the person you quoted, in the same "
        "conversation, after your own message showing them the line (ingest both first); your own messages, system "
        "events, questions, a refusal ('No, don't') and another participant's yes are refused as evidence_refused "
        "naming message_id. The fact is then served (or kept conflicted if it contradicts "
        "established knowledge); a correction (`replaces`) is then applied to the fact it replaces, whose new "
        "version the answer gives. decision delete: the fact is forgotten (verified; the answer carries the residue "
        "report) and never served; a deleted correction leaves the fact it would replace as it was. Never decide for the person."),
)


# -- the server ----------------------------------------------------------------------------------
def build_server(store_for: StoreFor, *, principal: Local = None, name: str = "credo") -> MCPServer:
    """The MCP server; `store_for(principal)` gives a caller's store. Over HTTP the caller is the principal the
    API-key middleware resolved; over stdio or in memory it is `principal` (a callable is asked on every call, so a
    revoked key stops working at once)."""
    return MCPServer(name, instructions=INSTRUCTIONS, tools=[_tool(spec, store_for, principal) for spec in TOOLS])


def _http_state(ctx: Context) -> dict[str, Any] | None:
    """The ASGI scope state of the HTTP request carrying this call (None over stdio or in memory)."""
    try:
        request = ctx.request_context.request
    except ValueError:  # called outside a request (e.g. MCPServer.call_tool directly)
        return None
    return None if request is None else dict(request.scope.get("state") or {})


def caller(ctx: Context, local: Local) -> Principal:
    """Who this call acts as: the principal the API-key middleware resolved over HTTP (never a default there), else
    the server's local principal (asked again on every call when it is a callable); Unauthenticated without one."""
    state = _http_state(ctx)
    found = state.get(PRINCIPAL_STATE) if state is not None else (local() if callable(local) else local)
    if not isinstance(found, Principal):
        raise Unauthenticated("an API key is required (X-API-Key or Authorization: Bearer)")
    return found


def _tool(spec: ToolSpec, store_for: StoreFor, local: Local) -> Tool:
    op = spec.op

    def call(ctx: Context, **arguments: Any) -> Any:
        try:
            store = store_for(caller(ctx, local))
            store.authorize(op.name, arguments)  # 403 before the arguments are read (the Store checks it again)
            if spec.paged:  # one page, cut in the read's query by key, as over REST
                given = {k: v for k, v in arguments.items() if k not in PAGING}
                command = _validate(spec, given)
                return spec.shape(pages.keyset_read(lambda cmd, **paging: store.handle(op.name, cmd, **paging),
                                                    command, given, operation=op.name, limit=arguments.get("limit"),
                                                    cursor=arguments.get("cursor"),
                                                    by=pages.cut_by(type(store), op.store_method)))
            command = _validate(spec, arguments)
            return spec.shape(store.handle(op.name, command))  # validated once, here
        except CredoError as exc:
            return _error(exc, ctx)
        except Exception as exc:  # a bug: logged here, answered as an internal problem without its text
            log.exception("tool %s failed", op.mcp)
            return _error(exc, ctx)

    call.__name__ = op.mcp
    call.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)], return_annotation=spec.result)
    tool = Tool.from_function(call, name=op.mcp, description=spec.description, context_kwarg="ctx",
                              annotations=ToolAnnotations(read_only_hint=not op.write,
                                                          destructive_hint=False if not op.write else None))
    tool.fn_metadata.arg_model = _PassThrough  # the command model validates, below, not the SDK
    tool.parameters = _input_schema(spec)  # what the agent sees: the command model itself
    return tool


class _PassThrough(ArgModelBase):
    """Tool arguments handed on untouched (unknown ones included), so the command model alone validates them and
    its errors - a typo'd field too - come back as problem documents rather than the SDK's argument errors."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        """Every argument as given."""
        return dict(self.model_extra or {})


PAGING = ("limit", "cursor")  # a paged tool's arguments that are the page's, not the command's


def _input_schema(spec: ToolSpec) -> dict[str, Any]:
    schema = spec.op.command.model_json_schema()
    for name in spec.fixed:
        schema.get("properties", {}).pop(name, None)
    if spec.paged:
        schema.setdefault("properties", {}).update({
            "limit": {"type": "integer", "minimum": 1, "maximum": pages.MAX_LIMIT, "default": pages.DEFAULT_LIMIT,
                      "description": "the most items of this page"},
            "cursor": {"type": "string", "maxLength": pages.CURSOR_MAX,
                       "description": "the `next_cursor` of the page before, with the same other arguments"}})
    return schema


def _validate(spec: ToolSpec, arguments: dict[str, Any]) -> Command:
    """The command, or InvalidInput naming the first offending field and the rule it broke."""
    for name in spec.fixed:
        if name in arguments:
            raise InvalidInput(name, f"not an argument of this tool (it always sets {name}={spec.fixed[name]!r})")
    given = dict(arguments) | spec.fixed
    try:
        return spec.op.command.model_validate(given)
    except ValidationError as exc:
        raise invalid_input(exc, given) from None  # named by the arguments' own path (`states.1`, `scope.env`)


def _error(exc: BaseException, ctx: Context) -> CallToolResult:
    """A tool error: isError, the problem document (same code as over REST) as structured content and as text."""
    request_id = (_http_state(ctx) or {}).get("request_id")  # set by the app's request-id middleware
    document = problem_for(exc, request_id=request_id).model_dump(mode="json")
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(document, ensure_ascii=False))],
                          structured_content=document, is_error=True)


async def tool_names(server: MCPServer | None = None) -> list[str]:
    """The names of the tools a server lists (the parity test compares them with the registry)."""
    return [t.name for t in await (server or build_server(lambda principal: None)).list_tools()]  # type: ignore[arg-type]
