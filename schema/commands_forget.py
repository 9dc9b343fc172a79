"""Command models of forgetting (issue 12 items 2-3): forget, purge, verify, and the scope-wide jobs."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from credo.schema.behalf import OnBehalfOf
from credo.schema.command_base import Command, Id, Int, Name, Text


class Forget(Command):
    """Remove the content of a fact (every version), a source, an entity (and the facts about it) or a summary."""

    target_id: Id
    reason: Annotated[Text, Field(min_length=1)]
    actor: OnBehalfOf


class Purge(Command):
    """forgotten -> deleted: remove the tombstoned nodes themselves (the only exit from forgotten)."""

    target_id: Id


class VerifyForgotten(Command):
    """List every place that still holds the content of a forgotten id; complete only when none does."""

    target_id: Id


class ForgetSubject(Command):
    """Forget an entity and every fact about it, in batches, as a resumable job."""

    entity: Annotated[Name, Field(min_length=1)]
    reason: Annotated[Text, Field(min_length=1)]
    actor: OnBehalfOf
    batch_size: Int = Field(default=500, ge=1, le=10_000)


class ForgetTenant(Command):
    """Forget everything the tenant holds, in batches, as a resumable job."""

    reason: Annotated[Text, Field(min_length=1)]
    actor: OnBehalfOf
    batch_size: Int = Field(default=500, ge=1, le=10_000)


class ForgetResume(Command):
    """Resume the tenant's unfinished forget jobs (after a crash)."""
