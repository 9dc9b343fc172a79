"""`credo timeline`, `credo roll-off`, `credo reflect`: episodic memory read by time, rolled off, reflected on."""

from __future__ import annotations

import argparse

from credo.api.cli.facts import connected
from credo.api.render import to_json


def _window(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--session", help="the session whose messages the episodes were stated in")
    which.add_argument("--entity", help="the entity the episodes are about")
    parser.add_argument("--from", dest="from_", metavar="TIME", help="episodes at or after this time")
    parser.add_argument("--to", metavar="TIME", help="episodes before this time")
    parser.add_argument("--json", action="store_true", help="print JSON")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the episodic commands to the main parser's sub-parsers."""
    timeline = subparsers.add_parser("timeline", help="the episodes of a session or an entity, in time order")
    _window(timeline)
    timeline.add_argument("--known-at", help="as the store knew them then")
    timeline.set_defaults(handler=cmd_timeline)

    roll = subparsers.add_parser("roll-off", help="forget the episodes older than their workflow's TTL (verified)")
    roll.add_argument("--now", metavar="TIME", help="measure ages at this earlier instant (default: now; "
                                                         "a later one is refused)")
    roll.add_argument("--json", action="store_true", help="print JSON")
    roll.set_defaults(handler=cmd_roll_off)

    reflect = subparsers.add_parser("reflect", help="propose semantic candidates from a window's episodes "
                                                    "(writes nothing semantic)")
    _window(reflect)
    reflect.set_defaults(handler=cmd_reflect)


def cmd_timeline(args: argparse.Namespace) -> int:
    """Print the episodes in time order."""
    found = connected(args).timeline(session=args.session, entity=args.entity, from_=args.from_, to=args.to,
                                     known_at=args.known_at)
    if args.json:
        print(to_json(found))
        return 0
    if not found:
        print("no episode in this window")
    for f in found:
        at = (f.valid_from or f.known_from).isoformat()
        print(f"{at}  {f.fact_id}  {f.statement}" + (f'  "{f.quote}"' if f.quote else ""))
    return 0


def cmd_roll_off(args: argparse.Namespace) -> int:
    """Roll off the expired episodes; exits 1 if any left residue."""
    done = connected(args).roll_off(now=args.now)
    if args.json:
        print(to_json(done))
    else:
        print(f"rolled off {len(done.forgotten)} episode(s) at {done.at.isoformat()}")
        for r in done.forgotten:
            print(f"  {r.target_id}: {'complete' if r.report.complete else 'RESIDUE'}")
    return 0 if done.complete else 1


def cmd_reflect(args: argparse.Namespace) -> int:
    """Print the semantic candidates a reflection proposes."""
    found = connected(args).reflect(session=args.session, entity=args.entity, from_=args.from_, to=args.to)
    if args.json:
        print(to_json(found))
        return 0
    print(f"{found.episodes} episode(s) read; {len(found.proposals)} candidate(s) ({found.proposer}); nothing written:"
          " admit one through the gate (remember with its quote, or add_fact)")
    for p in found.proposals:
        print(f"- {p.statement} ({p.reason}): " + ", ".join(e.fact_id for e in p.episodes))
    return 0
