"""`credo policy show|set`: the tenant's write policy, per kind of memory (DESIGN §9)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from credo.api.cli.facts import connected
from credo.api.render import to_json
from credo.schema.errors import InvalidInput
from credo.schema.facts import MEMORY_KINDS
from credo.schema.policy import WritePolicyVersion
from credo.services.policy import rules


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the policy commands to the main parser's sub-parsers."""
    policy = subparsers.add_parser("policy", help="the tenant's write policy per kind of memory")
    sub = policy.add_subparsers(dest="policy_command", required=True)
    show = sub.add_parser("show", help="the write policy in force (the defaults when none was set)")
    show.add_argument("--known-at", help="as the store knew it then")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler=cmd_show)
    put = sub.add_parser("set", help="store a new version of the write policy from a JSON file")
    put.add_argument("file", help='a JSON file, e.g. {"episodic": {"ttl": {"default": "P30D", "chat": "PT24H"}}, '
                                  '"semantic": {"visible": "logged"}}')
    put.add_argument("--json", action="store_true", help="print JSON")
    put.set_defaults(handler=cmd_set)


def cmd_show(args: argparse.Namespace) -> int:
    """Print the policy in force."""
    return _print(connected(args).write_policy(known_at=args.known_at), args.json)


def cmd_set(args: argparse.Namespace) -> int:
    """Store the policy the file holds and print the stored version."""
    try:
        document = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInput("file", f"cannot read {args.file}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise InvalidInput("file", f"{args.file} is not JSON: {exc}") from None
    return _print(connected(args).set_write_policy(document), args.json)


def _print(version: WritePolicyVersion, as_json: bool) -> int:
    if as_json:
        print(to_json(version))
        return 0
    since = "never set: DESIGN §9's defaults" if version.known_from is None else f"known from {version.known_from}"
    print(f"write policy {version.policy_id} ({since})")
    for kind in MEMORY_KINDS:
        plan = rules.plan({}, kind, version)
        if plan is None:
            print(f"  {kind:<10} earns no slot (never)")
            continue
        print(f"  {kind:<10} earns: {plan.earns}; written {plan.when}; invalidated by {plan.invalidate}; "
              f"{plan.visible}" + (" (surfaced when user-facing)" if kind == "procedural" and plan.visible == "logged"
                                   and version.policy.rule(kind).visible is None else ""))
    ttl = version.policy.rule("episodic").ttl or {"default": rules.ttl_text(version, "default")}
    print("  episodic TTL per workflow: " + ", ".join(f"{w} {d}" for w, d in ttl.items()))
    return 0
