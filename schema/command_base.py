"""The base of the command models: the one `Time` type, the bounded value types, the `Command` base, and
validation helpers.

Every value from outside is bounded here, once, so the Store, REST, MCP and the CLI refuse the same input alike:
text is valid Unicode (a lone surrogate such as "\\ud800" cannot be stored) and at most its family's length (names
512, ids 200, URIs 2,048, free text 16 KiB: `credo.schema.names`), every integer lies in a sensible range inside
signed 64-bit and is never a boolean, a scope is at most 64 non-empty keys, and a free-form value (an `object`) nests
at most MAX_DEPTH levels. pydantic-core refuses a lone surrogate in any text with a length bound, so every text type
below carries one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    PlainSerializer,
    PlainValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    ValidationError,
    model_validator,
    WithJsonSchema,
)

from credo.schema.errors import CredoError, InvalidInput
from credo.schema.literals import LITERAL_TYPES, object_in
from credo.schema.names import (ID_MAX, NAME_MAX, SCOPE_MAX, TEXT_MAX, UNENCODABLE, URI_MAX, encodable, name_controls,
                               text_controls)
from credo.schema.time import Point, point

INT64_MAX = 2**63 - 1
POSITION_MAX = 2**31 - 1  # a message's index, a session generation: far beyond any conversation
MAX_DEPTH = 32  # nesting of a free-form value (an object literal, a message pointer)


def normalise_time(value: object) -> object:
    """A time value parsed once into a `Point`: its UTC instant and precision, its text the value at that precision
    ('YYYY', 'YYYY-MM', 'YYYY-MM-DD', or an aware UTC instant in ISO text).

    Accepts a Point, a date, an aware datetime or ISO text; a naive datetime (or text without an offset) is
    refused."""
    if not isinstance(value, str | date | datetime):  # None too: an optional field (`Time | None`) takes it first
        raise ValueError("Input should be a valid string")  # pydantic's words for a value of another type
    try:
        return point(value, "time")
    except InvalidInput as exc:
        raise ValueError(exc.rule) from None


Time = Annotated[
    Point, PlainValidator(normalise_time), PlainSerializer(str, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "description": "YYYY, YYYY-MM, YYYY-MM-DD, or an ISO 8601 instant with an "
                    "offset; precision is kept, naive instants are refused", "examples": ["2024-06-01"]}),
]
"""The one time type: parsed once at the boundary into a Point (precision kept), naive datetimes refused."""

Name = Annotated[str, Field(max_length=NAME_MAX), AfterValidator(name_controls)]
"""A name or a label: subject, predicate, entity, role, author, actor, kind, task (at most 512 characters)."""
Text = Annotated[str, Field(max_length=TEXT_MAX), AfterValidator(text_controls)]
"""Free text: a statement, quote, reason, note, message or summary text (at most 16 KiB)."""
Uri = Annotated[str, Field(max_length=URI_MAX)]
Id = Annotated[str, Field(min_length=1, max_length=ID_MAX), AfterValidator(name_controls)]
"""An id Credo made (f_..., v_..., s_..., ...) as a caller passes it back."""
SessionId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX),
                     AfterValidator(name_controls)]
"""A session id the caller chose: non-empty, at most 512 characters."""
Actor = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX),
                  AfterValidator(name_controls)]
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=TEXT_MAX),
                   AfterValidator(text_controls)]
ScopeKey = Annotated[str, Field(min_length=1, max_length=NAME_MAX), AfterValidator(name_controls)]
Scope = Annotated[dict[ScopeKey, Name], Field(max_length=SCOPE_MAX)]
"""A scope: at most 64 pairs of text, keys non-empty (e.g. {"env": "production"})."""
Int = Annotated[int, Strict()]
"""An integer, never a boolean or text (each field adds its own sensible range inside signed 64-bit)."""
Position = Annotated[int, Strict(), Field(ge=0, le=POSITION_MAX)]
"""A message's position in its session (an integer, never a boolean)."""
Generation = Annotated[int, Strict(), Field(ge=1, le=POSITION_MAX)]
"""A session's generation (from 1)."""
Confidence = Annotated[float, Strict(), Field(ge=0.0, le=1.0)]
"""A number in 0..1 (an integer or a decimal, never a boolean or text)."""
States = Annotated[list[Name], Field(max_length=32)] | Name | None
IdList = Annotated[list[Id], Field(max_length=10_000)]


def bounded_value(value: Any) -> Any:
    """A free-form value (an object literal, a pointer) as it may be stored: valid Unicode text of at most 16 KiB
    (keys included), at most MAX_DEPTH levels of lists and mappings."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, dict | list | tuple):
            if depth >= MAX_DEPTH:
                raise ValueError(f"nests deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for key in item:
                    if isinstance(key, str):
                        _check_text(key)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return value


def _check_text(text: str) -> None:
    if len(text) > TEXT_MAX:
        raise ValueError(f"text must be at most {TEXT_MAX} characters (got {len(text)})")
    if not encodable(text):
        raise ValueError(UNENCODABLE)
    text_controls(text)


LITERAL_SCHEMA = {
    "type": "object", "required": ["type", "value"],
    "description": "a typed literal: string (text that names no entity), number, or date (YYYY, YYYY-MM or "
                   "YYYY-MM-DD, precision kept); {type: entity, value: name} names an entity",
    "properties": {"type": {"enum": [*LITERAL_TYPES, "entity"]},
                   "value": {"anyOf": [{"type": "string"}, {"type": "number"}]}},
}
ObjectIn = Annotated[Any, BeforeValidator(lambda value: object_in(bounded_value(value))), WithJsonSchema({
    "description": "an entity name (text), a number, or a typed literal {type, value} (string, number, date)",
    "anyOf": [{"type": "string"}, {"type": "number"}, LITERAL_SCHEMA]})]
"""An object as every surface takes it: bounded (valid text, depth), then a typed literal mapping becomes an
ObjectValue once, here."""


class Command(BaseModel):
    """Base of every command: unknown fields are refused, so a typo never passes silently; a field's old name
    (`renamed`: old -> new, kept for one release) is refused with a hint naming the new one."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
    renamed: ClassVar[dict[str, str]] = {}

    @model_validator(mode="before")
    @classmethod
    def _old_names(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for old, new in cls.renamed.items():
                if old in data:
                    raise InvalidInput(old, f"renamed: pass `{new}` instead (one name per argument; `{old}` is "
                                            "refused from this release on)")
        return data


C = TypeVar("C", bound=Command)


def build(model: type[C], **fields: Any) -> C:
    """Validate `fields` with `model`; the first broken rule becomes one InvalidInput naming the field."""
    try:
        return model(**fields)
    except ValidationError as exc:
        raise invalid_input(exc, fields) from None
    except TypeError as exc:  # e.g. an unexpected keyword from Python
        raise InvalidInput(model.__name__, str(exc)) from None


def invalid_input(exc: ValidationError, given: Any = None) -> CredoError:
    """One InvalidInput from pydantic's errors: the first error, named by the path the caller sent (`given`)."""
    return refusal(exc.errors(), given)


def refusal(errors: Sequence[Any], given: Any = None) -> InvalidInput:
    """The first of pydantic's errors as one InvalidInput: its field as the caller sent it, and its rule."""
    if not errors:
        return InvalidInput("input", "invalid input")
    first = errors[0]
    path = sent_path(first.get("loc", ()), given)
    # a union's members each answer; the one whose type matches what was sent says what is wrong with it
    peers = [e for e in errors if sent_path(e.get("loc", ()), given) == path]
    first = next((e for e in peers if not str(e.get("type", "")).endswith("_type")), first)
    loc = tuple(first.get("loc", ()))
    rule = rule_of(first)
    if "[key]" in loc:  # a mapping's key broke the rule: name the mapping, quote the key in the rule
        at = loc.index("[key]")
        rule = f"key {printable(repr(loc[at - 1]))}: {rule}" if at else rule
        loc = loc[:max(at - 1, 0)]
    return InvalidInput(sent_path(loc, given) or "input", rule)


def sent_path(loc: Sequence[Any], given: Any = None) -> str:
    """A pydantic location as the path the caller sent (`messages.0.at`, `states`): the names pydantic adds for a
    union's members (`list[constrained-str]`, `function-after[...]`) are no key of `given`, and are dropped."""
    parts: list[str] = []
    here: Any = given if isinstance(given, dict | list | tuple) else _UNKNOWN
    for part in loc:
        if isinstance(part, int):
            here = here[part] if isinstance(here, list | tuple) and 0 <= part < len(here) else _UNKNOWN
        elif isinstance(here, dict) and part in here:
            here = here[part]
        elif here is _UNKNOWN or isinstance(here, dict):
            if _union_member(part):
                continue
            here = _UNKNOWN
        else:
            continue  # below a value sent as text, a number or a list, a name is a union member, not a key
        parts.append(printable(str(part)))
    return ".".join(parts)


_UNKNOWN = object()


def _union_member(part: str) -> bool:
    """Whether a location part is pydantic's name for a union member (`str`, `list[...]`, `constrained-str`)."""
    return "[" in part or "-" in part or part in ("str", "int", "float", "bool", "list", "dict", "none")


def rule_of(error: Any) -> str:
    """The rule a pydantic error states, in Credo's words where pydantic's are unclear."""
    if error.get("type") == "string_unicode":
        return UNENCODABLE
    return str(error.get("msg", "invalid")).removeprefix("Value error, ")


def printable(text: str) -> str:
    """Text safe to send back in an answer: a lone surrogate is shown escaped (\\ud800), never sent raw."""
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def fields_of(command: Command, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """The command's fields as keyword arguments (for the service call)."""
    return {name: getattr(command, name) for name in type(command).model_fields if name not in drop}


def given(command: Command, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """Only the fields the caller set (for partial changes such as a correction)."""
    return {name: getattr(command, name) for name in command.model_fields_set if name not in drop}
