"""`credo import FILE.jsonl`: the pipelined bulk import, one fact per line, progress on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from credo.api.cli.facts import connected
from credo.api.render import to_json
from credo.schema.imports import ImportBatch


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the import command to the main parser's sub-parsers."""
    cmd = subparsers.add_parser("import", help="import facts from a JSON Lines file (one add_fact row per line) in "
                                               "atomic batches; stops at the first bad batch")
    cmd.add_argument("file", type=Path, help="JSON Lines: one object of add_fact's fields per line ('-': stdin)")
    cmd.add_argument("--batch-size", type=int, default=1000, help="rows per atomic batch (default 1000)")
    cmd.add_argument("--json", action="store_true", help="print the import report as JSON")
    cmd.set_defaults(handler=cmd_import)


def rows_of(lines: Any) -> Iterator[Any]:
    """One row per non-blank line; a line that is not a JSON object is passed on as its text (the import names it)."""
    for line in lines:
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError:
            yield line.rstrip("\n")


def _tell(batch: ImportBatch) -> None:
    print(f"batch {batch.batch}: rows {batch.first_row}-{batch.first_row + batch.rows - 1} committed, "
          f"{batch.facts} facts (waited {batch.waited_s:.1f} s for vectors, wrote in {batch.write_s:.1f} s)",
          file=sys.stderr, flush=True)


def cmd_import(args: argparse.Namespace) -> int:
    """Import the file; exit 1 when a batch failed (the batches before it stay committed)."""
    store = connected(args)
    if str(args.file) == "-":
        report = store.import_facts(rows_of(sys.stdin), batch_size=args.batch_size, progress=_tell)
    else:
        with args.file.open(encoding="utf-8") as lines:
            report = store.import_facts(rows_of(lines), batch_size=args.batch_size, progress=_tell)
    if args.json:
        print(to_json(report))
    else:
        committed = ", ".join(map(str, report.committed)) or "none"
        print(f"imported {report.rows} rows ({report.facts} facts) in {len(report.committed)} batches "
              f"(committed: {committed})")
        if report.error is not None:
            e = report.error
            where = f"row {e.row}" if e.row is not None else f"batch {e.batch}"
            print(f"stopped at {where}" + (f", field {e.field}" if e.field else "") + f": {e.rule}; "
                  f"batch {e.batch} and later batches not written")
    return 0 if report.error is None else 1
