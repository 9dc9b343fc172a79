"""`credo deprecate`, `quarantine`, `release`: the explicit lifecycle acts, each with a reason and an actor."""

from __future__ import annotations

import argparse

from credo.api.cli.truth import report_lines
from credo.api.cli.facts import connected
from credo.api.render import fact_line, to_json


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the deprecate, quarantine and release commands to the main parser's sub-parsers."""
    deprecate = subparsers.add_parser("deprecate", help="set a fact aside as deprecated (kept as history)")
    deprecate.add_argument("fact_id", help="the fact id (f_...)")
    _said(deprecate)
    deprecate.set_defaults(handler=cmd_deprecate)
    for name, text in (("quarantine", "set aside a suspicious source's facts (or one fact): not served, not deleted"),
                       ("release", "release quarantined facts (a source's, or one) back to candidate")):
        parser = subparsers.add_parser(name, help=text)
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--source", dest="source_id", help="the source id (s_...)")
        target.add_argument("--fact", dest="fact_id", help="the fact id (f_...)")
        _said(parser)
        parser.set_defaults(handler=cmd_quarantine if name == "quarantine" else cmd_release)


def _said(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reason", required=True, help="why")
    parser.add_argument("--actor", required=True, help="who decided (a person or a policy)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _print(args: argparse.Namespace, facts: list, cascade: object) -> int:
    if args.json:
        print(to_json({"facts": facts, "cascade": cascade}))
        return 0
    for fact in facts:
        print(fact_line(fact))
    if not facts:
        print("nothing to move")
    print("\n".join(report_lines(cascade)))  # type: ignore[arg-type]
    return 0


def cmd_deprecate(args: argparse.Namespace) -> int:
    """Deprecate one fact and print it with its cascade."""
    fact = connected(args).deprecate(args.fact_id, reason=args.reason, actor=args.actor)
    return _print(args, [fact], fact.cascade)


def cmd_quarantine(args: argparse.Namespace) -> int:
    """Quarantine a source's facts (or one fact) and print them with the cascade."""
    facts = connected(args).quarantine(args.source_id, fact_id=args.fact_id, reason=args.reason, actor=args.actor)
    return _print(args, facts, facts[0].cascade if facts else None)


def cmd_release(args: argparse.Namespace) -> int:
    """Release a source's quarantined facts (or one fact) back to candidate."""
    facts = connected(args).release(args.source_id, fact_id=args.fact_id, reason=args.reason, actor=args.actor)
    return _print(args, facts, facts[0].cascade if facts else None)
