"""Command models of episodic memory: the timeline, TTL roll-off and reflection (DESIGN §9, issue 27 item 1)."""

from __future__ import annotations

from pydantic import Field

from credo.schema.command_base import Command, Name, SessionId, Time


class TimelineQuery(Command):
    """The episodes of one session or one entity in time order (valid time, then known time), within [from_, to)."""

    session: SessionId | None = Field(default=None, description="the session whose messages the episodes were "
                                                                "stated in (give this or entity)")
    entity: Name | None = Field(default=None, description="the entity the episodes are about (their subject)")
    from_: Time | None = Field(default=None, description="episodes at or after this time (their valid_from, or "
                                                         "their known_from when undated)")
    to: Time | None = Field(default=None, description="episodes before this time")
    known_at: Time | None = None


class RollOffEpisodes(Command):
    """Forget every episode older than its workflow's TTL, each verified by its residue report."""

    now: Time | None = Field(default=None, description="measure ages at this instant (default: the store's now); "
                                                       "never later than the store's clock")


class Reflect(Command):
    """Read the episodes of a window and propose semantic candidates; writes nothing semantic."""

    session: SessionId | None = Field(default=None, description="reflect on this session's episodes (or entity)")
    entity: Name | None = Field(default=None, description="reflect on the episodes about this entity")
    from_: Time | None = Field(default=None, description="episodes at or after this time")
    to: Time | None = Field(default=None, description="episodes before this time")
