"""`credo forget item|purge|verify|subject|tenant|resume`: forgetting, with progress for the batched jobs."""

from __future__ import annotations

import argparse
import sys

from credo.api.cli.facts import connected
from credo.api.render import to_json
from credo.schema.forget import ForgetJob, ResidueReport


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `credo forget ...` to the main parser's sub-parsers."""
    forget = subparsers.add_parser("forget", help="forget content (not a DELETE), purge tombstones, verify residue")
    sub = forget.add_subparsers(dest="forget_command", required=True, metavar="ACTION")

    item = sub.add_parser("item", help="forget a fact, source, entity or summary by id")
    item.add_argument("target_id", help="f_... fact, s_... source, e_... entity, sum_... summary")
    item.add_argument("--reason", required=True)
    item.add_argument("--actor", required=True, help="who acts (for the person asking to be forgotten)")
    item.add_argument("--json", action="store_true", help="print JSON")
    item.set_defaults(handler=cmd_item)

    purge = sub.add_parser("purge", help="delete a forgotten id's tombstoned nodes (forgotten -> deleted)")
    purge.add_argument("target_id")
    purge.add_argument("--json", action="store_true", help="print JSON")
    purge.set_defaults(handler=cmd_purge)

    verify = sub.add_parser("verify", help="every place still holding a forgotten id's content")
    verify.add_argument("target_id")
    verify.add_argument("--json", action="store_true", help="print JSON")
    verify.set_defaults(handler=cmd_verify)

    for name, helptext in (("subject", "forget an entity and every fact naming it, in batches"),
                           ("tenant", "forget everything this tenant holds, in batches")):
        job = sub.add_parser(name, help=helptext)
        if name == "subject":
            job.add_argument("entity", help="entity name or id")
        job.add_argument("--reason", required=True)
        job.add_argument("--actor", required=True)
        job.add_argument("--batch-size", type=int, default=500)
        job.add_argument("--json", action="store_true", help="print JSON")
        job.set_defaults(handler=cmd_subject if name == "subject" else cmd_tenant)

    resume = sub.add_parser("resume", help="finish forget jobs a crash left running")
    resume.add_argument("--json", action="store_true", help="print JSON")
    resume.set_defaults(handler=cmd_resume)


def report_lines(report: ResidueReport | None) -> list[str]:
    """The residue report, one line per place."""
    if report is None:
        return ["no report"]
    lines = [f"{report.target_id}: {'complete' if report.complete else 'NOT complete'} "
             f"({len(report.residue)} places hold content; probes: {', '.join(report.probes)} from {report.probe_from})"]
    if report.tombstone is not None:
        lines.append(f"  {report.tombstone.text()}"
                     + (f"; purged on {report.purged_at.isoformat()}" if report.purged_at else ""))
    lines += [f"  residue  {r.place}: {r.ref} ({r.detail})" for r in report.residue]
    if report.checked:
        lines.append(f"  checked  {', '.join(report.checked)}")
    lines += [f"  kept     {k.place}: {k.ref} ({k.detail})" for k in report.left_by_design]
    lines += [f"  outside  {o.place}: {o.detail}" for o in report.outside_store]
    lines.append(f"  crypto-erased: {str(report.crypto_erased).lower()} ({report.crypto_reason})")
    return lines


def _progress(job: ForgetJob) -> None:
    print(f"\r{job.phase:<10} {job.done:>8} done", end="", file=sys.stderr, flush=True)


def _print(args: argparse.Namespace, value: object, report: ResidueReport | None) -> int:
    if args.json:
        print(to_json(value))
    else:
        print("\n".join(report_lines(report)))
    return 0 if report is None or report.complete else 1


def cmd_item(args: argparse.Namespace) -> int:
    """Forget one id and print its residue report."""
    result = connected(args).forget(args.target_id, reason=args.reason, actor=args.actor)
    if not args.json:
        print(f"forgot {len(result.forgotten)} ids: {' '.join(result.forgotten)}")
    return _print(args, result, result.report)


def cmd_purge(args: argparse.Namespace) -> int:
    """Purge a forgotten id."""
    report = connected(args).purge(args.target_id)
    return _print(args, report, report)


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify a forgotten id."""
    report = connected(args).verify_forgotten(args.target_id)
    return _print(args, report, report)


def cmd_subject(args: argparse.Namespace) -> int:
    """Forget a subject in batches, with progress."""
    job = connected(args).forget_subject(args.entity, reason=args.reason, actor=args.actor,
                                         batch_size=args.batch_size, progress=None if args.json else _progress)
    print("", file=sys.stderr)
    return _print(args, job, job.report)


def cmd_tenant(args: argparse.Namespace) -> int:
    """Forget the whole tenant in batches, with progress (resumable: run it again after a crash)."""
    job = connected(args).forget_tenant(reason=args.reason, actor=args.actor, batch_size=args.batch_size,
                                        progress=None if args.json else _progress)
    print("", file=sys.stderr)
    return _print(args, job, job.report)


def cmd_resume(args: argparse.Namespace) -> int:
    """Resume unfinished jobs."""
    jobs = connected(args).forget_resume(progress=None if args.json else _progress)
    if args.json:
        print(to_json(jobs))
        return 0
    print(f"\n{len(jobs)} jobs resumed", file=sys.stderr)
    for job in jobs:
        print("\n".join(report_lines(job.report)))
    return 0
