"""What a bulk import reports: each batch's rows and outcome, and the first error naming its row and field."""

from __future__ import annotations

from pydantic import BaseModel


class ImportBatch(BaseModel):
    """One batch of an import: its number (from 0), the rows it held, how many facts its commit returned, how long
    the writer waited for its validation and vectors (`waited_s`: the embedder is the bottleneck when it grows) and
    how long its write took (`write_s`)."""

    batch: int
    first_row: int
    rows: int
    facts: int
    committed: bool
    waited_s: float = 0.0
    write_s: float = 0.0


class ImportFailure(BaseModel):
    """The first error of an import: the batch it stopped, the row (0-based in the input; None when the write failed
    as a whole), the field and the rule it broke (or the refusal's message)."""

    batch: int
    row: int | None
    field: str | None
    rule: str
    error: str


class ImportReport(BaseModel):
    """Counts per batch; `committed` lists the batches written (each atomic), `error` the one that stopped it."""

    batches: list[ImportBatch]
    committed: list[int]
    rows: int
    facts: int
    error: ImportFailure | None = None

    @property
    def complete(self) -> bool:
        """Every batch was committed."""
        return self.error is None
