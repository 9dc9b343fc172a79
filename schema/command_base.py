"""The base of the command models: the one `Time` type, the `Command` base, and validation helpers."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema, model_validator

from credo.schema.errors import CredoError, InvalidInput
from credo.schema.literals import object_in
from credo.schema.time import parse_point


def normalise_time(value: object) -> object:
    """A time value at its own precision: 'YYYY', 'YYYY-MM', 'YYYY-MM-DD', or an aware UTC instant in ISO text.

    Accepts a date, an aware datetime or ISO text; a naive datetime (or text without an offset) is refused."""
    if value is None or not isinstance(value, str | date | datetime):
        return value  # None stays unknown; other types fail the `str` check with pydantic's message
    try:
        instant, precision = parse_point(value, "time")
    except InvalidInput as exc:
        raise ValueError(exc.rule) from None
    if precision == "year":
        return f"{instant.year:04d}"
    if precision == "month":
        return f"{instant.year:04d}-{instant.month:02d}"
    if precision == "day":
        return instant.date().isoformat()
    return instant.isoformat()


Time = Annotated[
    str, BeforeValidator(normalise_time),
    WithJsonSchema({"type": "string", "description": "YYYY, YYYY-MM, YYYY-MM-DD, or an ISO 8601 instant with an "
                    "offset; precision is kept, naive instants are refused", "examples": ["2024-06-01"]}),
]
"""The one time type: normalised once at the boundary, precision kept, naive datetimes refused."""

Scope = dict[str, str]
LITERAL_SCHEMA = {
    "type": "object", "required": ["type", "value"],
    "description": "a typed literal: string (text that names no entity), number, or date (YYYY, YYYY-MM or "
                   "YYYY-MM-DD, precision kept); {type: entity, value: name} names an entity",
    "properties": {"type": {"enum": ["string", "number", "date", "entity"]},
                   "value": {"anyOf": [{"type": "string"}, {"type": "number"}]}},
}
ObjectIn = Annotated[Any, BeforeValidator(lambda value: object_in(value)), WithJsonSchema({
    "description": "an entity name (text), a number, or a typed literal {type, value} (string, number, date)",
    "anyOf": [{"type": "string"}, {"type": "number"}, LITERAL_SCHEMA]})]
"""An object as every surface takes it; a typed literal mapping becomes an ObjectValue once, here."""
States = list[str] | str | None
Id = Annotated[str, Field(min_length=1, max_length=200)]


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
        raise invalid_input(exc) from None
    except TypeError as exc:  # e.g. an unexpected keyword from Python
        raise InvalidInput(model.__name__, str(exc)) from None


def invalid_input(exc: ValidationError) -> CredoError:
    """One InvalidInput from pydantic's errors: the first error's location and message."""
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "input"
    message = str(first["msg"]).removeprefix("Value error, ")
    return InvalidInput(field, message)


def fields_of(command: Command, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """The command's fields as keyword arguments (for the service call)."""
    return {name: getattr(command, name) for name in type(command).model_fields if name not in drop}


def given(command: Command, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """Only the fields the caller set (for partial changes such as a correction)."""
    return {name: getattr(command, name) for name in command.model_fields_set if name not in drop}
