"""`credo stale`, `reverify`, `maintain`, `rebuild`: what awaits re-checking after a premise changed; `credo diff`:
what changed in what is believed between two known times."""

from __future__ import annotations

import argparse
from datetime import datetime, timezone
from typing import Any

from credo.api.cli.facts import _scope, connected
from credo.api.render import change_text, fact_line, to_json
from credo.schema.cascade import OUTCOMES, CascadeReport


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the stale, reverify and rebuild commands to the main parser's sub-parsers."""
    stale = subparsers.add_parser("stale", help="everything awaiting re-verification or a rebuild, oldest first")
    stale.add_argument("--json", action="store_true", help="print JSON")
    stale.set_defaults(handler=cmd_stale)

    reverify = subparsers.add_parser("reverify", help="close a re-verification: holds, lapsed or retracted")
    reverify.add_argument("fact_id", help="the fact id (f_...)")
    reverify.add_argument("--outcome", choices=OUTCOMES, required=True)
    reverify.add_argument("--evidence", action="append", metavar="TEXT_OR_ID",
                          help="new evidence: text, a source id (s_...) or a premise fact id (f_...); repeatable")
    reverify.add_argument("--note", help="why (for lapsed: 'no longer applies because ...')")
    reverify.add_argument("--json", action="store_true", help="print JSON")
    reverify.set_defaults(handler=cmd_reverify)

    maintain = subparsers.add_parser("maintain", help="the sweep: stale by ended premises, tier moves, episodic TTL")
    maintain.add_argument("--episodic-ttl-days", type=int, help="first set the tenant's episodic TTL (0: none)")
    maintain.add_argument("--json", action="store_true", help="print JSON")
    maintain.set_defaults(handler=cmd_maintain)

    rebuild = subparsers.add_parser("rebuild", help="re-check a summary's trace, re-running its summarizer if needed")
    rebuild.add_argument("summary_id", help="the summary id (sum_...)")
    rebuild.add_argument("--summarizer", choices=["list", "llm"], default="list",
                         help="list: deterministic bullets (default); llm: CREDO_LLM_BASE_URL / CREDO_LLM_MODEL")
    rebuild.add_argument("--json", action="store_true", help="print JSON")
    rebuild.set_defaults(handler=cmd_rebuild)

    diff = subparsers.add_parser("diff", help="what changed in what is believed between two known times")
    diff.add_argument("--since", required=True, metavar="KNOWN_A", help="the earlier known time (excluded)")
    diff.add_argument("--until", metavar="KNOWN_B", help="the later known time (included; default now)")
    diff.add_argument("--subject", help="only changes of facts about this entity")
    diff.add_argument("--scope", action="append", metavar="KEY=VALUE")
    diff.add_argument("--json", action="store_true", help="print JSON")
    diff.set_defaults(handler=cmd_diff)


def report_lines(report: CascadeReport | None) -> list[str]:
    """What a write's cascade flagged and restored, one line each."""
    if report is None:
        return []
    lines = [f"  stale fact {f.fact_id} (depth {f.depth}, path {' -> '.join(f.path)}): {f.cause.text()}"
             for f in report.facts]
    lines += [f"  stale summary {s.summary_id} {s.topic!r}: {s.reason}" for s in report.summaries]
    lines += [f"  green again: summary {s.summary_id} {s.topic!r}" for s in report.restored]
    return lines


def cmd_stale(args: argparse.Namespace) -> int:
    """List stale facts and summaries with their causes."""
    items = connected(args).stale()
    if args.json:
        print(to_json(items))
        return 0
    for item in items:
        print(f"{item.since.isoformat()}  {item.kind:<7} {item.id}  {item.text}")
        if item.cause:
            print(f"    cause: {item.cause}")
    if not items:
        print("nothing awaits re-verification or a rebuild")
    return 0


def cmd_reverify(args: argparse.Namespace) -> int:
    """Re-verify one fact and print the resulting version and its cascade."""
    evidence: Any = args.evidence if args.evidence else None
    fact = connected(args).reverify(args.fact_id, outcome=args.outcome, evidence=evidence, note=args.note)
    if args.json:
        print(to_json({"fact": fact, "cascade": fact.cascade}))
        return 0
    print(fact_line(fact))
    if fact.lapse_reason:
        print(f"  {fact.lapse_reason}")
    print("\n".join(report_lines(fact.cascade)))
    return 0


def cmd_maintain(args: argparse.Namespace) -> int:
    """Run the sweep once and print what it flagged."""
    report = connected(args).maintain(episodic_ttl_days=args.episodic_ttl_days)
    if args.json:
        print(to_json(report))
        return 0
    lines = report_lines(report)
    print("\n".join(lines) if lines else "nothing rests on a premise whose valid time has ended")
    for move in report.tier_moves:
        print(f"  tier {move.fact_id}: {move.from_tier.value} -> {move.to_tier.value} ({move.rule})")
    if report.ttl_due:
        print(f"  due for forgetting (episodic TTL): {', '.join(report.ttl_due)}")
    return 0


def _summarizer(args: argparse.Namespace) -> Any:
    from credo.services.adapters.summarizers import ChatSummarizer, ListSummarizer

    if args.summarizer == "llm":
        from credo.services.adapters.llm_client import ChatClient

        return ChatSummarizer(ChatClient(args.settings))
    return ListSummarizer()


def cmd_rebuild(args: argparse.Namespace) -> int:
    """Rebuild one summary (or turn it green when its trace still holds) and print it."""
    summary = connected(args).rebuild(args.summary_id, summarizer=_summarizer(args))
    if args.json:
        print(to_json({"summary": summary, "cascade": summary.cascade}))
        return 0
    print(f"{summary.summary_id}/{summary.version_id} [{summary.state}] {summary.topic}")
    print(summary.text)
    print("\n".join(report_lines(summary.cascade)))
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    """Print every change of belief between --since and --until (default now), oldest first."""
    until = args.until or datetime.now(timezone.utc)
    found = connected(args).diff(args.since, until, scope=_scope(args.scope), subject=args.subject)
    if args.json:
        print(to_json(found))
        return 0
    for change in found.changes:
        print(f"{change.at.isoformat()}  {change.kind.value:<17} {change.fact_id}  {change_text(change)}")
    if not found.changes:
        print(f"nothing changed between {found.known_a.isoformat()} and {found.known_b.isoformat()}")
    return 0
