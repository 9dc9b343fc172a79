"""`credo consent FACT_ID accept|delete [--message ID]`: relay a person's answer to a surfaced write (DESIGN §9)."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import to_json
from credo.schema.consent import CONSENT_DECISIONS


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the consent command to the main parser's sub-parsers."""
    consent = subparsers.add_parser("consent", help="accept or delete a fact awaiting the person's consent")
    consent.add_argument("fact_id", help="the fact awaiting consent (listed under context's open part)")
    consent.add_argument("decision", choices=CONSENT_DECISIONS, help="accept: serve it; delete: forget it")
    consent.add_argument("--message", dest="message_id", help="accept only: the id of the person's message saying yes")
    consent.add_argument("--json", action="store_true", help="print JSON")
    consent.set_defaults(handler=cmd_consent)


def cmd_consent(args: argparse.Namespace) -> int:
    """Relay the answer and print what it did."""
    done = connected(args).consent(args.fact_id, args.decision, message_id=args.message_id)
    if args.json:
        print(to_json(done))
    elif done.fact is not None:
        print(f"accepted {done.fact_id}: {done.fact.state} — {done.fact.statement}")
    else:
        report = done.forgotten.report if done.forgotten else None
        print(f"deleted {done.fact_id}: forgotten" + (" (residue report complete)" if report and report.complete
                                                      else " (residue left: see `credo forget verify`)"))
    return 0
