"""`credo transition`: the transition check of the writes between two known times (coverage, preservation,
faithfulness); exits 1 when a dimension fails."""

from __future__ import annotations

import argparse
from datetime import datetime, timezone

from credo.api.cli.facts import _scope, connected
from credo.api.render import to_json
from credo.schema.transition import DimensionReport


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `credo transition`."""
    check = subparsers.add_parser("transition", help="check the writes between two known times: coverage, "
                                                     "preservation, faithfulness")
    check.add_argument("--before", required=True, metavar="KNOWN_BEFORE", help="the known time before (excluded)")
    check.add_argument("--after", metavar="KNOWN_AFTER", help="the known time after (included; default now)")
    check.add_argument("--scope", action="append", metavar="KEY=VALUE")
    check.add_argument("--strict", action="store_true", help="an ungrounded write fails faithfulness")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(handler=cmd_transition)


def _dimension(name: str, report: DimensionReport) -> list[str]:
    lines = [f"{name:<13} {'ok' if report.ok else 'FAILED'}  ({report.checked} checked, "
             f"{len(report.findings)} finding{'s' if len(report.findings) != 1 else ''})"]
    for f in report.findings:
        by = f"{f.operation} {f.event_id}" if f.event_id else "no write"
        lines.append(f"  {f.at.isoformat()}  {f.kind.value:<11} {f.fact_id or '-'} {f.version_id or ''}  [{by}] "
                     f"{f.why}")
    return lines


def cmd_transition(args: argparse.Namespace) -> int:
    """Print each dimension's verdict and findings; exit 1 when one fails."""
    after = args.after or datetime.now(timezone.utc)
    report = connected(args).check_transition(args.before, after, scope=_scope(args.scope), strict=args.strict)
    if args.json:
        print(to_json(report))
        return 0 if report.ok else 1
    print(f"writes in ({report.known_before.isoformat()}, {report.known_after.isoformat()}]: {report.events} "
          f"events, {report.changes} changes of belief")
    for name in ("coverage", "preservation", "faithfulness"):
        print("\n".join(_dimension(name, getattr(report, name))))
    if report.withheld_note:
        print(f"note: {report.withheld_note}")
    return 0 if report.ok else 1
