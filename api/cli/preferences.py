"""`credo preference outcome|show`, `credo tenant-flag`, `credo tenant-flags`: preference validation (off until an admin
sets the flag) and the tenant's flags."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import printed
from credo.schema.preferences import PREFERENCE_OUTCOMES, TENANT_FLAGS, Preference


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the preference commands to the main parser's sub-parsers."""
    preference = subparsers.add_parser("preference", help="report outcomes of acting on a preference, read its "
                                                          "posterior")
    sub = preference.add_subparsers(dest="preference_command", required=True)
    outcome = sub.add_parser("outcome", help="how acting on a preference turned out")
    outcome.add_argument("fact_id", help="the preference fact's id (f_...)")
    outcome.add_argument("outcome", choices=PREFERENCE_OUTCOMES)
    outcome.add_argument("--json", action="store_true", help="print JSON")
    outcome.set_defaults(handler=cmd_outcome)

    show = sub.add_parser("show", help="a preference's Beta posterior, outcomes and drift item")
    show.add_argument("fact_id", help="the preference fact's id (f_...)")
    show.add_argument("--known-at", help="as the store knew it then")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler=cmd_show)

    flag = subparsers.add_parser("tenant-flag", help="turn a tenant flag on or off (admin)")
    flag.add_argument("flag", choices=TENANT_FLAGS)
    state = flag.add_mutually_exclusive_group(required=True)
    state.add_argument("--on", dest="enabled", action="store_true", help="turn it on")
    state.add_argument("--off", dest="enabled", action="store_false", help="turn it off")
    flag.add_argument("--json", action="store_true", help="print JSON")
    flag.set_defaults(handler=cmd_flag)

    flags = subparsers.add_parser("tenant-flags", help="every tenant flag, on or off and since when")
    flags.add_argument("--known-at", help="as the store knew it then")
    flags.add_argument("--json", action="store_true", help="print JSON")
    flags.set_defaults(handler=cmd_flags)


def cmd_outcome(args: argparse.Namespace) -> int:
    """Report an outcome and print the posterior as it now stands."""
    return printed(connected(args).preference_outcome(args.fact_id, args.outcome), args.json, _preference_lines)


def cmd_show(args: argparse.Namespace) -> int:
    """Print a preference's posterior."""
    return printed(connected(args).preference(args.fact_id, known_at=args.known_at), args.json, _preference_lines)


def cmd_flag(args: argparse.Namespace) -> int:
    """Set a tenant flag and print the setting."""
    return printed(connected(args).set_tenant_flag(args.flag, enabled=args.enabled), args.json,
                   lambda s: [f"{s.flag}: {'on' if s.enabled else 'off'} from {s.known_from.isoformat()}"])


def cmd_flags(args: argparse.Namespace) -> int:
    """Print every tenant flag as believed now or at --known-at."""
    return printed(connected(args).tenant_flags(known_at=args.known_at), args.json,
                   lambda s: [f"{s.flag}: {'on' if s.enabled else 'off'}"
                              + (f" since {s.known_from.isoformat()}" if s.known_from else " (never set)")])


def _preference_lines(found: Preference) -> list[str]:
    lines = [f"{found.fact_id}: strength {found.strength:.2f} (Beta({found.alpha:g}, {found.beta:g}), lower "
             f"{found.lower:.2f}) over {found.outcomes} outcomes; recent: {', '.join(found.recent) or 'none'}"]
    if found.drift:
        lines.append(f"  drift item open: {found.drift} (conflicts; resolve with decision reject once a person "
                     "looked)")
    return lines
