"""What a surfaced write answers (DESIGN §9): the fact as written, and the line the person is shown before it serves
("I will remember that: …"), to accept or delete through `consent`."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

from credo.schema.facts import Fact
from credo.schema.forget import ForgetResult

ConsentDecision = Literal["accept", "delete"]
"""The person's answer: accept serves the fact; delete forgets it."""
CONSENT_DECISIONS: tuple[ConsentDecision, ...] = get_args(ConsentDecision)

SURFACE_PREFIX = "I will remember that: "


def surface_line(statement: str) -> str:
    """The line an agent shows the person for a surfaced write of `statement`."""
    return f"{SURFACE_PREFIX}{statement}"


class Remembered(Fact):
    """The answer of `remember`: the fact's new version and, when the write is surfaced (it awaits consent),
    `surface`, the line to show the person; their answer goes back through `consent`."""

    surface: str | None = None

    @classmethod
    def of(cls, fact: Fact, surface: str | None = None) -> "Remembered":
        """The answer for a version `remember` wrote."""
        return cls.trusted(**{**fact.__dict__, "surface": surface})


class ConsentResult(BaseModel):
    """What `consent` did: `accept` answers the fact's admitted version (`fact`: active, or conflicted when it
    contradicts an established value); `delete` answers the forget's result (`forgotten`, with its residue report)."""

    model_config = ConfigDict(frozen=True)

    fact_id: str
    decision: ConsentDecision
    fact: Fact | None = None
    forgotten: ForgetResult | None = None
