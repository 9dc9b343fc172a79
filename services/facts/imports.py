"""Pipelined bulk import: batch n+1 is validated and embedded in a worker thread while batch n is written.

Each batch is one `add_facts` call (one atomic transaction, the same rules and the same versions as calling
`add_facts` with those rows); the import stops at the first batch that fails, so the report names the committed
batches, and every later batch stays unwritten. ONNX Runtime and the tokenizer release the GIL while they run, so
the embedding of the next batch overlaps the driver's round trips and Neo4j's commit of this one
(bench/bench_embeddings.py measures the share of the embedder's throughput this reaches).
measured: bench/audit_tricks.py --parts import on Neo4j 2026.08.1 (2026-12-03, load 9): 1,000 facts in batches of
250 took 12.9 s pipelined, 14.9 s with each batch embedded after the last one's write (1.15x).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from credo.schema import commands as c
from credo.schema import commands_import as ci
from credo.schema.commands import build
from credo.schema.errors import CredoError, InvalidInput
from credo.schema.facts import FactCreate
from credo.schema.imports import ImportBatch, ImportFailure, ImportReport
from credo.services.facts import record as record_fact
from credo.services.core.context import Context

Progress = Callable[[ImportBatch], None]


class Prepared:
    """An embedder that answers the vectors computed ahead of the write, and asks the real one for anything else
    (a statement changed by name resolution, embedded on the write's second attempt as `Context.write` does)."""

    def __init__(self, embedder: Any, vectors: dict[str, list[float]]) -> None:
        self.embedder = embedder
        self.dimension = getattr(embedder, "dimension", None)
        self.vectors = vectors

    def embed(self, texts: list[str]) -> list[list[float]]:
        """The prepared vector of each text; the rest embedded now, in one call."""
        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if missing:
            self.vectors.update(zip(missing, self.embedder.embed(missing)))
        return [self.vectors[t] for t in texts]


@dataclass
class _Batch:
    number: int
    first_row: int
    rows: list[Any]
    data: list[FactCreate] = field(default_factory=list)
    premises: list[list[str] | None] = field(default_factory=list)
    vectors: dict[str, list[float]] = field(default_factory=dict)
    failure: ImportFailure | None = None


def _chunks(rows: Iterable[Any], size: int) -> Iterator[_Batch]:
    chunk: list[Any] = []
    number = first = 0
    for index, row in enumerate(rows):
        if not chunk:
            first = index
        chunk.append(row)
        if len(chunk) == size:
            yield _Batch(number, first, chunk)
            number, chunk = number + 1, []
    if chunk:
        yield _Batch(number, first, chunk)


def _validate(batch: _Batch) -> _Batch:
    """Validate the batch's rows as add_facts does (the first bad row named by its index in the input). Runs in the
    worker thread; touches no transaction."""
    for offset, row in enumerate(batch.rows):
        index = batch.first_row + offset
        try:
            if isinstance(row, FactCreate):
                batch.data.append(row)
                batch.premises.append(None)
                continue
            if not isinstance(row, dict):
                raise InvalidInput("rows", f"must be a mapping of add_fact's fields, got {type(row).__name__}")
            cmd = build(c.AddFact, **row)  # the declared row shape, its times parsed once
            batch.data.append(cmd.create())
            batch.premises.append(row.get("depends_on"))
        except InvalidInput as exc:
            batch.failure = ImportFailure(batch=batch.number, row=index, field=exc.field, rule=exc.rule,
                                          error=type(exc).__name__)
            return batch
    return batch


def _embed(ctx: Context, batch: _Batch) -> _Batch:
    """Embed the statements a validated batch's write will create (in the worker thread, after `_validate`)."""
    if batch.failure is None:
        batch.vectors = ctx.embed(record_fact.foreseen(batch.data))
    return batch


def import_facts(ctx: Context, cmd: ci.ImportFacts, *, progress: Progress | None = None) -> ImportReport:
    """Write the command's `rows` in atomic batches of `batch_size` (one add_facts each), embedding the next batch
    meanwhile; the first failing batch stops the import and is named in the report with its row and field. The rows
    are checked batch by batch, and may be any iterable (the Store's command carries a generator over a file as it
    is); `progress(batch)` is called after each commit."""
    rows, batch_size = cmd.rows, cmd.batch_size
    if isinstance(rows, str | bytes | dict):
        raise InvalidInput("rows", "must be an iterable of facts (mappings of add_fact's fields)")
    done: list[ImportBatch] = []
    failure: ImportFailure | None = None
    chunks = _chunks(rows, batch_size)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="credo-import") as worker:
        def ahead() -> tuple[Future[_Batch], Future[_Batch]] | None:
            nxt = next(chunks, None)  # validated, then embedded, in the worker: one task after the other
            return None if nxt is None else (worker.submit(_validate, nxt), worker.submit(_embed, ctx, nxt))

        queued = ahead()
        pending = queued[1] if queued is not None else None
        while pending is not None:
            started = time.perf_counter()
            batch = pending.result()
            waited = time.perf_counter() - started
            if batch.failure is not None:
                failure = batch.failure
                done.append(ImportBatch(batch=batch.number, first_row=batch.first_row, rows=len(batch.rows),
                                        facts=0, committed=False, waited_s=waited))
                break
            queued = ahead()  # batch n+1 is validated and embedded while batch n is written
            pending = queued[1] if queued is not None else None
            writer = ctx if ctx.embedder is None else dataclasses.replace(
                ctx, embedder=Prepared(ctx.embedder, batch.vectors))
            started = time.perf_counter()
            try:
                written = record_fact.add_facts(writer, batch.data, depends_on=batch.premises)
            except CredoError as exc:
                failure = ImportFailure(batch=batch.number, row=None, field=getattr(exc, "field", None),
                                        rule=getattr(exc, "rule", None) or str(exc), error=type(exc).__name__)
                done.append(ImportBatch(batch=batch.number, first_row=batch.first_row, rows=len(batch.rows),
                                        facts=0, committed=False, waited_s=waited))
                break
            done.append(ImportBatch(batch=batch.number, first_row=batch.first_row, rows=len(batch.rows),
                                    facts=len(written), committed=True, waited_s=waited,
                                    write_s=time.perf_counter() - started))
            if progress is not None:
                progress(done[-1])
        for job in queued or ():
            job.cancel()
    committed = [b.batch for b in done if b.committed]
    return ImportReport(batches=done, committed=committed, rows=sum(b.rows for b in done if b.committed),
                        facts=sum(b.facts for b in done if b.committed), error=failure)
