"""Objects of claims: an entity or a typed literal (string, number, date), and how every surface reads and sends one.

JSON cannot say "this text is a date" or "this text names no entity", so every surface also takes a typed literal
`{type, value}`; `object_in` reads it once (command models and the write path call it), `wire_object` writes it (the
HTTP client), and a Fact's `object` answers in the same form, a number's value as a JSON number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, WithJsonSchema, field_serializer, field_validator

from credo.schema.errors import InvalidInput
from credo.schema.names import LITERAL_MAX
from credo.schema.time import parse_point, render

ObjectType = Literal["entity", "string", "number", "date"]


class ObjectValue(BaseModel):
    """The object of a claim: an entity (by id) or a typed literal.

    A number's `value` is its canonical text (`42`, `2.5`); in JSON it is written as a number, so a literal reads
    back over every surface with the type and value it was written with. A date keeps its precision: `2019`,
    `2019-04` or `2019-04-01`."""

    model_config = ConfigDict(frozen=True)

    type: ObjectType
    value: Annotated[str, WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "number"}],
                                          "description": "a number literal's value is a JSON number"})]
    entity_id: str | None = None

    @field_validator("value", mode="before")
    @classmethod
    def _value(cls, value: Any) -> Any:
        # a number read back from JSON (see _json_value) becomes its canonical text again
        if isinstance(value, int | float) and not isinstance(value, bool):
            return number_text(value)
        return value

    @field_serializer("value", when_used="json")
    def _json_value(self, value: str) -> Any:
        if self.type == "number":
            try:
                return number_of(value)
            except ValueError:  # a stored value that is no number is shown as it is
                return value
        return value

    @property
    def key(self) -> tuple[str, str]:
        """Identity used to compare objects (entities by id, literals by type and canonical text)."""
        return ("entity", self.entity_id or "") if self.type == "entity" else (self.type, self.value)

    def typed(self) -> Any:
        """The value as a Python object: an int or a float for a number, a date for a day-precision date, else the
        text (a year- or month-precision date stays `2019` / `2019-04`)."""
        if self.type == "number":
            return number_of(self.value)
        if self.type == "date" and len(self.value) == 10:
            return date.fromisoformat(self.value)
        return self.value


LITERAL_TYPES = ("string", "number", "date")
_INTEGER = re.compile(r"^[+-]?\d+$")


def number_text(value: int | float) -> str:
    """The canonical text of a number: an int as digits, a float as its shortest repr (`2.5`, `42.0`)."""
    return repr(float(value)) if isinstance(value, float) else str(int(value))


def number_of(text: str) -> int | float:
    """The number a canonical text holds: an int when written without a point or exponent, else a float."""
    text = text.strip()
    return int(text) if _INTEGER.match(text) else float(text)


def literal(value: object, field: str = "object") -> ObjectValue:
    """A typed literal from a Python value (numbers and dates keep their type); an ObjectValue passes through, and
    a typed literal mapping `{type, value}` is read as `object_in` reads it."""
    if isinstance(value, ObjectValue):
        return value
    if isinstance(value, Mapping):
        typed = object_in(value, field)
        if isinstance(typed, ObjectValue):
            return typed
        raise InvalidInput(f"{field}.type", "an entity is not a literal here; give a string, number or date")
    if isinstance(value, bool):
        raise InvalidInput(field, "booleans are not literals; state the claim as text")
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput(field, "numbers must be finite")
        return ObjectValue(type="number", value=number_text(value))
    if isinstance(value, datetime):
        raise InvalidInput(field, "use a date for a date literal; instants belong in valid_from/valid_to")
    if isinstance(value, date):
        return ObjectValue(type="date", value=value.isoformat())
    if isinstance(value, str):
        if not value.strip():
            raise InvalidInput(field, "must not be empty")
        if len(value) > LITERAL_MAX:
            raise InvalidInput(field, f"must be at most {LITERAL_MAX} characters (got {len(value)})")
        return ObjectValue(type="string", value=value.strip())
    raise InvalidInput(field, f"expected an entity name, text, number or date, got {type(value).__name__}")


def object_in(value: object, field: str = "object") -> Any:
    """An object as any surface receives it, made unambiguous once: a typed literal mapping `{type, value}` (JSON's
    only way to say "this text is a date" or "this text is no name") becomes an ObjectValue, and
    `{type: "entity", value: name}` the name; a `date` becomes a date literal; anything else passes on unchanged
    (a text names an entity, a number is a number literal, and the write path checks them)."""
    if isinstance(value, datetime):
        raise InvalidInput(field, "use a date for a date literal; instants belong in valid_from/valid_to")
    if isinstance(value, date):
        return literal(value, field)
    if not isinstance(value, Mapping):
        return value
    unknown = sorted(str(k) for k in value if k not in ("type", "value", "entity_id"))
    if unknown:
        raise InvalidInput(f"{field}.{unknown[0]}", "unknown field of a typed literal; give {type, value}")
    kind, given = value.get("type"), value.get("value")
    if kind not in (*LITERAL_TYPES, "entity"):
        hint = " (text is 'string')" if kind == "text" else ""
        raise InvalidInput(f"{field}.type", f"must be one of {[*LITERAL_TYPES, 'entity']}{hint}, got {kind!r}")
    if value.get("entity_id") is not None:
        raise InvalidInput(f"{field}.entity_id", "ids are assigned by the store; name an entity by its value")
    if given is None:
        raise InvalidInput(f"{field}.value", "is required")
    if kind == "entity":
        if not isinstance(given, str):
            raise InvalidInput(f"{field}.value", f"an entity is named by text, got {type(given).__name__}")
        return given
    if kind == "string":
        if not isinstance(given, str):
            raise InvalidInput(f"{field}.value", f"a string literal is text, got {type(given).__name__}")
        return literal(given, f"{field}.value")
    if kind == "number":
        return literal(_number(given, f"{field}.value"), f"{field}.value")
    return _date_literal(given, f"{field}.value")


def wire_object(value: object) -> object:
    """The JSON form of an object that keeps its type over HTTP: a literal (ObjectValue, number, date) as
    `{type, value}`, an entity ObjectValue as `{type: "entity", value: name}`; a text (an entity name) unchanged."""
    if isinstance(value, ObjectValue):
        return {"type": value.type, "value": value.model_dump(mode="json")["value"]}
    if isinstance(value, date | int | float) and not isinstance(value, bool | datetime):
        lit = literal(value)
        return {"type": lit.type, "value": lit.model_dump(mode="json")["value"]}
    return value


def _number(given: object, field: str) -> int | float:
    if isinstance(given, bool) or not isinstance(given, int | float | str):
        raise InvalidInput(field, f"a number literal is a number, got {type(given).__name__}")
    if isinstance(given, str):
        try:
            given = number_of(given)
        except ValueError:
            raise InvalidInput(field, f"not a number: {given[:40]!r}") from None
    if isinstance(given, float) and not math.isfinite(given):
        raise InvalidInput(field, "numbers must be finite")
    return given


def _date_literal(given: object, field: str) -> ObjectValue:
    if isinstance(given, datetime) or not isinstance(given, str | date):
        raise InvalidInput(field, f"a date literal is YYYY, YYYY-MM or YYYY-MM-DD, got {type(given).__name__}")
    point, precision = parse_point(given, field)
    if precision == "instant":
        raise InvalidInput(field, "a date literal is YYYY, YYYY-MM or YYYY-MM-DD; instants belong in "
                                  "valid_from/valid_to")
    return ObjectValue(type="date", value=render(point, precision))
