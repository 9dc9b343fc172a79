"""`credo context`, `served-to`, `tasks-served`: the context package and the read receipts of tasks."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import to_json
from credo.schema.receipts import ReadReceipt


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the recall commands to the main parser's sub-parsers."""
    context = subparsers.add_parser("context", help="what is current, historical and open about a question or entity")
    context.add_argument("query", help="a question, or an entity's name")
    context.add_argument("--at", dest="valid_at", help="valid time (default now)")
    context.add_argument("--known-at", dest="known_at", help="known time (default: believed now)")
    context.add_argument("--budget", dest="budget_tokens", type=int, help="token budget of the text (4 chars a token)")
    context.add_argument("--task", help="record a read receipt for this task label")
    context.add_argument("--json", action="store_true", help="print the package as JSON")
    context.set_defaults(handler=cmd_context)

    served = subparsers.add_parser("served-to", help="what a task was served: its read receipts, oldest first")
    served.add_argument("task", help="the task label")
    served.add_argument("--json", action="store_true", help="print JSON")
    served.set_defaults(handler=cmd_served_to)

    tasks = subparsers.add_parser("tasks-served", help="which tasks were served a fact or a version")
    tasks.add_argument("fact_id", help="a fact id (f_...) or a version id (v_...)")
    tasks.add_argument("--json", action="store_true", help="print JSON")
    tasks.set_defaults(handler=cmd_tasks_served)


def cmd_context(args: argparse.Namespace) -> int:
    """Print the package's markdown (or JSON)."""
    package = connected(args).context(args.query, valid_at=args.valid_at, known_at=args.known_at,
                                      budget_tokens=args.budget_tokens, task=args.task)
    print(to_json(package) if args.json else package.markdown)
    return 0


def _receipt_lines(receipts: list[ReadReceipt]) -> str:
    lines = []
    for r in receipts:
        lines.append(f"{r.at.isoformat()}  {r.receipt_id}  task {r.task}  {r.operation}"
                     f"{' ' + repr(r.query) if r.query else ''}")
        lines += [f"    {v.version_id}  {v.statement}" for v in r.versions]
    return "\n".join(lines) or "(no receipts)"


def cmd_served_to(args: argparse.Namespace) -> int:
    """Print a task's receipts with the versions each served."""
    found = connected(args).served_to(args.task)
    print(to_json(found) if args.json else _receipt_lines(found))
    return 0


def cmd_tasks_served(args: argparse.Namespace) -> int:
    """Print the receipts that served a fact."""
    found = connected(args).tasks_served(args.fact_id)
    print(to_json(found) if args.json else _receipt_lines(found))
    return 0
