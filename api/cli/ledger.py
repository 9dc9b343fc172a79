"""`credo audit`, `verify-ledger`, `feedback`, `utility`: the audit ledger and the utility ledger."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import printed, to_json
from credo.schema.utility import FEEDBACK_OUTCOMES


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ledger commands to the main parser's sub-parsers."""
    audit = subparsers.add_parser("audit", help="ledger events in chain order, filtered; --after continues a page")
    audit.add_argument("--operation", help="only this operation (e.g. retract_fact)")
    audit.add_argument("--id", help="only events naming this id (fact, version, source, ...)")
    audit.add_argument("--actor", help="only events of this actor")
    audit.add_argument("--from", dest="from_time", help="events at or after this instant")
    audit.add_argument("--to", dest="to_time", help="events before this instant")
    audit.add_argument("--after", type=int, help="continue after this ledger position (seq)")
    audit.add_argument("--limit", type=int, help="at most this many events (default 1000)")
    audit.add_argument("--json", action="store_true", help="print JSON")
    audit.set_defaults(handler=cmd_audit)

    verify = subparsers.add_parser("verify-ledger", help="re-hash the ledger chain; name changed/inserted/removed events")
    verify.add_argument("--json", action="store_true", help="print JSON")
    verify.set_defaults(handler=cmd_verify)

    feedback = subparsers.add_parser("feedback", help="re-classify a served recall: useful, harmful or unknown")
    feedback.add_argument("receipt_id", help="the read receipt that served the fact")
    feedback.add_argument("fact_id", help="the fact id (f_...)")
    feedback.add_argument("--outcome", choices=FEEDBACK_OUTCOMES, required=True)
    feedback.add_argument("--reason", help="why")
    feedback.add_argument("--json", action="store_true", help="print JSON")
    feedback.set_defaults(handler=cmd_feedback)

    usage = subparsers.add_parser("utility", help="a memory's tier, uses, active days and net utility")
    usage.add_argument("fact_id", help="the fact id (f_...)")
    usage.add_argument("--json", action="store_true", help="print JSON")
    usage.set_defaults(handler=cmd_utility)


def cmd_audit(args: argparse.Namespace) -> int:
    """Print one page of the ledger, one line per event, and the cursor of the next page."""
    page = connected(args).audit(operation=args.operation, id=args.id, actor=args.actor, from_time=args.from_time,
                                 to_time=args.to_time, after=args.after, limit=args.limit)
    if args.json:
        print(to_json(page))
        return 0
    for e in page.items:
        why = f"  ({e.reason})" if e.reason else ""
        print(f"{e.seq:>6} {e.at.isoformat()}  {e.operation:<16} {e.subject_id or '-'}  by {e.actor}{why}")
    if page.next_after is not None:
        print(f"more: --after {page.next_after}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify the chain; exit 1 when it does not hold."""
    report = connected(args).verify_ledger()
    if args.json:
        print(to_json(report))
        return 0 if report.ok else 1
    print(f"{'ok' if report.ok else 'BROKEN'}: {report.events} chained events, head at {report.head_seq}")
    if report.unchained:
        print(f"{report.unchained} events written before the chain began ({report.chain_starts_at}) are not chained")
    for p in report.problems:
        print(f"  {p.kind} at {p.seq if p.seq is not None else '-'}: {p.event_id or '-'}: {p.detail}")
    return 0 if report.ok else 1


def cmd_feedback(args: argparse.Namespace) -> int:
    """Re-classify one recall and print the memory's utility."""
    usage = connected(args).feedback(args.receipt_id, args.fact_id, outcome=args.outcome, reason=args.reason)
    return printed(usage, args.json, _usage_lines)


def cmd_utility(args: argparse.Namespace) -> int:
    """Print one memory's utility ledger."""
    return printed(connected(args).utility(args.fact_id), args.json, _usage_lines)


def _usage_lines(usage) -> list[str]:
    recalls = ", ".join(f"{n} {o}" for o, n in usage.recalls.items()) or "no recalls"
    lines = [f"{usage.fact_id} [{usage.kind}, {usage.state}] tier {usage.tier.value} since "
             f"{usage.tier_since.isoformat()}",
             f"  utility {usage.utility:+.1f} ({recalls}); {usage.uses} uses on {usage.active_days} days"]
    if usage.ttl_due_at:
        lines.append(f"  due for forgetting since {usage.ttl_due_at.isoformat()} (episodic TTL)")
    return lines
