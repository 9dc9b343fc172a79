"""`credo policy show|set|versions`: the tenant's write policy, per kind of memory (DESIGN §9), and its versions."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from credo.api.cli.facts import connected
from credo.api.render import to_json
from credo.schema.errors import InvalidInput
from credo.schema.facts import MEMORY_KINDS
from credo.schema.policy import PolicyChange, WritePolicyVersion
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
    versions = sub.add_parser("versions", help="the versions of the write policy, newest first: who set each, when, "
                                               "what changed")
    versions.add_argument("--after", help="continue after this version (the `more: --after` of a page)")
    versions.add_argument("--limit", type=int, help="at most this many versions (default 100)")
    versions.add_argument("--json", action="store_true", help="print JSON")
    versions.set_defaults(handler=cmd_versions)


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


def cmd_versions(args: argparse.Namespace) -> int:
    """Print one page of the policy's versions, one block per version, and the cursor of the next page."""
    page = connected(args).write_policy_versions(after=args.after, limit=args.limit)
    if args.json:
        print(to_json(page))
        return 0
    for v in page.items:
        since = "never set: DESIGN §9's defaults" if v.known_from is None else f"known from {v.known_from.isoformat()}"
        until = f" to {v.known_to.isoformat()}" if v.known_to else (" (in force)" if v.known_from else "")
        print(f"{v.policy_id}  {since}{until}" + (f"  set by {v.set_by}" if v.set_by else ""))
        for change in v.changes:
            print(f"  {_change(change)}")
        if v.known_from is not None and not v.changes:
            print("  (the same as the version before it)")
    if page.next_after is not None:
        print(f"more: --after {page.next_after}")
    return 0


def _change(change: PolicyChange) -> str:
    def shown(value: object) -> str:
        if isinstance(value, dict):
            return ", ".join(f"{w} {d}" for w, d in value.items())
        return "default" if value is None else str(value)

    return f"{change.kind}.{change.field}: {shown(change.before)} -> {shown(change.after)}"


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
