"""Command model of the pipelined bulk import (issue 9 item 5, issue 11's ingest benchmark)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from credo.schema.command_base import Command, Int


class ImportFacts(Command):
    """Import many claims in atomic batches, embedding batch n+1 while batch n is written; stops at a failed batch."""

    rows: list[dict[str, Any]] = Field(
        max_length=100_000, description="each row takes add_fact's fields (depends_on included); checked batch by batch")
    batch_size: Int = Field(default=1000, ge=1, le=10_000, description="rows per atomic batch (one add_facts each)")
