"""Hostile inputs, derived from the command models rather than listed by hand: a lone surrogate for every text
field, integers past 64 bits for every integer field, `true` for every number, and a valid value for every other
required field so that the hostile one is the only thing wrong with a call."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from credo.cypher import Query
from credo.schema.command_base import normalise_time
from credo.schema.operations import OPERATIONS, Operation

SURROGATE = "a\ud800b"
HUGE = (2**63, 2**70)
MESSAGE = {"index": 0, "role": "user", "origin": "human_input", "author": "alice", "text": "hello",
           "at": "2024-05-01T09:00:00+00:00"}
ROW = {"subject": "Acme", "predicate": "owned_by", "object": "Alice"}
POINTER = {"session_id": "s1", "index": 0}
POLICY = {"semantic": {"visible": "logged"}}  # a write policy (schema/policy.py WritePolicy)


def deep(levels: int, leaf: Any = "x") -> Any:
    """A value nested `levels` lists deep."""
    for _ in range(levels):
        leaf = [leaf]
    return leaf


def deep_json(levels: int) -> str:
    """JSON text nested `levels` lists deep (too deep for Python's json to write)."""
    return "[" * levels + "]" * levels


def _members(annotation: Any) -> list[Any]:
    """The types a field accepts: Optional and unions unwrapped, Annotated stripped, None dropped."""
    if get_origin(annotation) is Annotated:
        return _members(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        return [m for arg in get_args(annotation) for m in _members(arg)]
    return [] if annotation is type(None) else [annotation]


def _is_time(annotation: Any, metadata: list[Any]) -> bool:
    found = [*metadata, *(m for arg in get_args(annotation) if get_origin(arg) is Annotated
                          for m in get_args(arg)[1:])]
    return any(getattr(m, "func", None) is normalise_time for m in found)


def shape(name: str, info: Any) -> str:
    """What a field takes: time, text, texts (a list of text), text_or_texts, literal, int, float, bool, scope,
    object (any value), messages, rows, pointer."""
    if _is_time(info.annotation, info.metadata):
        return "time"
    members = _members(info.annotation)
    origins = {get_origin(m) or m for m in members}
    if name == "messages":
        return "messages"
    if name == "rows":
        return "rows"
    if name == "message":
        return "pointer"
    if name == "policy":
        return "policy"
    if dict in origins:
        return "scope"
    if members == [typing.Any]:
        return "object"
    if bool in origins:
        return "bool"
    if int in origins:
        return "int"
    if float in origins:
        return "float"
    if Literal in origins:
        return "literal"
    if origins == {str}:
        return "text"
    if origins == {list}:
        return "texts"
    if origins == {list, str}:
        return "text_or_texts"
    raise AssertionError(f"no shape for {name}: {info.annotation}")


def valid(name: str, info: Any) -> Any:
    """A value the field accepts."""
    kind = shape(name, info)
    if kind == "literal":
        return next(get_args(m)[0] for m in _members(info.annotation) if get_origin(m) is Literal)
    return {"time": "2024-01-01", "text": "x", "texts": ["x"], "text_or_texts": "x", "int": 1, "float": 0.5,
            "bool": True, "scope": {"env": "prod"}, "object": "x", "messages": [MESSAGE], "rows": [ROW],
            "pointer": POINTER, "policy": POLICY}[kind]


def required(model: type[BaseModel], *, but: str | None = None) -> dict[str, Any]:
    """Valid values for the model's required fields (except `but`)."""
    return {n: valid(n, i) for n, i in model.model_fields.items() if i.is_required() and n != but}


@dataclass(frozen=True)
class Bad:
    """One hostile call: the command's other required fields valid, one field hostile, and the field a refusal
    must name."""

    operation: str
    field: str
    value: Any
    named: str  # the field the refusal names (the path as sent)

    def fields(self, model: type[BaseModel]) -> dict[str, Any]:
        """The call's fields."""
        return {**required(model, but=self.field), self.field: self.value}

    def __str__(self) -> str:
        return f"{self.operation}.{self.named}"


def _surrogate_of(name: str, kind: str) -> list[tuple[Any, str]]:
    """Values of the field holding a lone surrogate, each with the path a refusal names."""
    return {
        "time": [(SURROGATE, name)], "text": [(SURROGATE, name)], "literal": [(SURROGATE, name)],
        "texts": [(["x", SURROGATE], f"{name}.1")], "text_or_texts": [(SURROGATE, name)],
        "object": [(SURROGATE, name)], "scope": [({"env": SURROGATE}, f"{name}.env"), ({SURROGATE: "x"}, name)],
        "pointer": [({"session_id": SURROGATE, "index": 0}, name)],
        "messages": [([{**MESSAGE, field: SURROGATE}], f"messages[0].{field}")
                     for field in ("role", "origin", "author", "text", "at")],
        "rows": [([{**ROW, "subject": SURROGATE}], "rows.0.subject")],
        "policy": [({"episodic": {"ttl": {"default": SURROGATE}}}, f"{name}.episodic.ttl.default"),
                   ({"episodic": {"ttl": {"default": "P1D", SURROGATE: "P1D"}}}, f"{name}.episodic.ttl")],
    }.get(kind, [])


CONTROL = "a\x00b"  # a NUL inside text: no name or text Credo keeps may hold one


def _control_of(name: str, kind: str) -> list[tuple[Any, str]]:
    """Values of the field holding a control character, each with the path a refusal names."""
    return {
        "text": [(CONTROL, name)], "texts": [(["x", CONTROL], f"{name}.1")], "text_or_texts": [(CONTROL, name)],
        "object": [(CONTROL, name)], "scope": [({"env": CONTROL}, f"{name}.env"), ({CONTROL: "x"}, f"{name}")],
        "pointer": [({"session_id": CONTROL, "index": 0}, name)],
        "messages": [([{**MESSAGE, field: CONTROL}], f"messages[0].{field}")
                     for field in ("role", "origin", "author", "text")],
        "rows": [([{**ROW, "subject": CONTROL}], "rows.0.subject")],
        "policy": [({"episodic": {"ttl": {"default": "P1D", CONTROL: "P1D"}}}, f"{name}.episodic.ttl")],
    }.get(kind, [])


def controls(surface: str = "rest") -> list[Bad]:
    """A NUL in every text field of every command."""
    return [Bad(op.name, name, value, named) for op in operations(surface)
            for name, info in op.command.model_fields.items() if op.command.__name__ != "ImportFacts"
            for value, named in _control_of(name, shape(name, info))]


def operations(surface: str = "rest") -> list[Operation]:
    """The operations a surface offers (every one over REST, the tools over MCP)."""
    return [op for op in OPERATIONS if surface == "rest" or op.mcp]


def surrogates(surface: str = "rest") -> list[Bad]:
    """A lone surrogate in every text field of every command (import rows stop their import instead: see the
    bulk tests)."""
    return [Bad(op.name, name, value, named) for op in operations(surface)
            for name, info in op.command.model_fields.items() if op.command.__name__ != "ImportFacts"
            for value, named in _surrogate_of(name, shape(name, info))]


def numbers(surface: str = "rest") -> list[Bad]:
    """2**63 and 2**70 in every integer field, `true` in every number field, a number where a time is expected."""
    bad = []
    for op in operations(surface):
        for name, info in op.command.model_fields.items():
            kind = shape(name, info)
            if kind == "int":
                bad += [Bad(op.name, name, huge, name) for huge in HUGE]
            if kind in ("int", "float"):
                bad.append(Bad(op.name, name, True, name))
            if kind == "time":
                bad.append(Bad(op.name, name, 1_700_000_000, name))
            if kind == "messages":
                bad += [Bad(op.name, name, [{**MESSAGE, "index": huge}], "messages[0].index") for huge in HUGE]
                bad.append(Bad(op.name, name, [{**MESSAGE, "index": True}], "messages[0].index"))
                bad.append(Bad(op.name, name, [{**MESSAGE, "at": 1_700_000_000}], "messages[0].at"))
            if kind == "pointer":
                bad += [Bad(op.name, name, {**POINTER, "index": huge}, name) for huge in HUGE]
    return bad


def too_long(surface: str = "rest") -> list[Bad]:
    """20 KB in every text field (the largest bound is 16 KiB)."""
    return [Bad(op.name, name, "x" * 20_000 if kind != "texts" else ["x" * 20_000], name if kind != "texts" else
                f"{name}.0")
            for op in operations(surface) for name, info in op.command.model_fields.items()
            if (kind := shape(name, info)) in ("text", "texts", "text_or_texts", "object")]


HELD = Query("test_tenant_holds", """
RETURN COUNT { (:AuditEvent {tenant: $tenant}) } AS audit_events, COUNT { (:Fact {tenant: $tenant}) } AS facts,
       COUNT { (:Source {tenant: $tenant}) } AS sources, COUNT { (:Entity {tenant: $tenant}) } AS entities,
       COUNT { (:Summary {tenant: $tenant}) } AS summaries""", frozenset({"tenant"}))


def held(db: Any, tenant: str) -> dict[str, int]:
    """What a tenant holds (every write leaves an audit event; the rest says what it wrote), by indexed counts."""
    return db.query(HELD, tenant=tenant)[0]


NOTHING = {"audit_events": 0, "facts": 0, "sources": 0, "entities": 0, "summaries": 0}
