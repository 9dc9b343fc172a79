"""Command model of consent (DESIGN §9, issue 27 item 1): the person's answer to a surfaced write ("I will remember
that …"), accept or delete, relayed by the agent that showed it."""

from __future__ import annotations

from pydantic import Field

from credo.schema.command_base import Command, Id
from credo.schema.consent import ConsentDecision


class Consent(Command):
    """The person's answer to a fact awaiting consent: `accept` serves it (admitted, the conflict rule runs) on the
    word of `message_id`, a human message of the fact's session saying yes; `delete` forgets it (verified)."""

    fact_id: Id
    decision: ConsentDecision = Field(description="accept: serve it from now; delete: forget it (never served)")
    message_id: Id | None = Field(default=None, description="accept only: the id (s_...) of the person's message of "
                                                            "the fact's session that says yes")
