"""Read receipts: which versions a read served to which task, so "what did the agent know when it acted" stays
answerable (`served_to`) and so does "which tasks were served this version" (`tasks_served`)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from credo.schema.facts import Fact


class ReadReceipt(BaseModel):
    """One read served to a task: the operation, its question and read point, when (known time), what it served."""

    model_config = ConfigDict(frozen=True)

    receipt_id: str
    task: str
    operation: str
    query: str | None = None
    # the question is withheld (null) from a reader below its asker's clearance: it may name what only they may see
    query_withheld: bool = False
    valid_at: datetime | None = None
    known_at: datetime | None = None  # the read's known-time point; None = believed at `at`
    at: datetime  # the receipt's known time (assigned by the store's commit clock)
    versions: list[Fact] = Field(default_factory=list)  # the served versions as stored (tasks_served: the asked ones)
