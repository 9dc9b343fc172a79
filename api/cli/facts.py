"""`credo fact ...`, `credo facts`, `credo history`, `credo chain`, `credo who`, conflicts and predicates."""

from __future__ import annotations

import argparse
from typing import Any

from credo.api.render import as_of_block, dated_apart, fact_line, facts_block, to_json
from credo.schema.errors import InvalidInput
from credo.schema.facts import CARDINALITIES, DECISIONS, object_in


def connected(args: argparse.Namespace) -> Any:
    """The Store for this command (built once, closed by main)."""
    if getattr(args, "store", None) is None:
        import credo

        # a command never starts the local Neo4j behind the user's back: `credo neo4j start` does
        args.store = credo.connect(settings=args.settings, start=False, progress=lambda m: print(m))
    return args.store


def _object(args: argparse.Namespace, value: str | None) -> Any:
    """The object as typed: --number, --date (YYYY, YYYY-MM or YYYY-MM-DD) and --text make a typed literal, the
    same `{type, value}` every other surface takes; a bare text names an entity."""
    if value is None:
        return None
    kind = "number" if args.number else "date" if args.date else "string" if args.text else None
    return value if kind is None else object_in({"type": kind, "value": value})


def _scope(pairs: list[str] | None) -> dict[str, str] | None:
    if not pairs:
        return None
    scope = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidInput("scope", f"expected KEY=VALUE, got {pair!r}")
        scope[key] = value
    return scope


def _typed(p: argparse.ArgumentParser) -> None:
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--number", action="store_true", help="the object is a number literal")
    kind.add_argument("--date", action="store_true", help="the object is a date literal (YYYY, YYYY-MM or YYYY-MM-DD)")
    kind.add_argument("--text", action="store_true", help="the object is a text literal, not an entity")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the fact and who-is-who commands."""
    fact = sub.add_parser("fact", help="record and revise facts").add_subparsers(dest="fact_command", required=True)
    add = fact.add_parser("add", help="record a claim")
    add.add_argument("subject"), add.add_argument("predicate"), add.add_argument("object")
    add.add_argument("--from", dest="valid_from"), add.add_argument("--to", dest="valid_to")
    add.add_argument("--scope", action="append", metavar="KEY=VALUE"), add.add_argument("--statement")
    add.add_argument("--operational", action="store_true",
                     help="a rule that can change production: a hypothesis until a tool_result, code, test or log "
                          "source is cited under it")
    _typed(add)
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler=cmd_add)
    correct = fact.add_parser("correct", help="we were wrong: a new version of the same fact")
    correct.add_argument("fact_id"), correct.add_argument("--object"), correct.add_argument("--statement")
    correct.add_argument("--from", dest="valid_from"), correct.add_argument("--to", dest="valid_to")
    _typed(correct)
    correct.add_argument("--json", action="store_true")
    correct.set_defaults(handler=cmd_correct)
    succeed = fact.add_parser("succeed", help="the world changed at --at: a successor takes over")
    succeed.add_argument("fact_id"), succeed.add_argument("--object", required=True)
    succeed.add_argument("--at", required=True)
    _typed(succeed)
    succeed.add_argument("--json", action="store_true")
    succeed.set_defaults(handler=cmd_succeed)
    end = fact.add_parser("end", help="the claim stopped holding at --at")
    end.add_argument("fact_id"), end.add_argument("--at", required=True)
    end.add_argument("--json", action="store_true")
    end.set_defaults(handler=cmd_end)
    retract = fact.add_parser("retract", help="we no longer believe it was ever true")
    retract.add_argument("fact_id"), retract.add_argument("--reason", required=True)
    retract.add_argument("--json", action="store_true")
    retract.set_defaults(handler=cmd_retract)

    for name, handler, helptext in [("facts", cmd_facts, "facts as of a (valid, known) point")]:
        p = sub.add_parser(name, help=helptext)
        p.add_argument("subject", nargs="?"), p.add_argument("--predicate"), p.add_argument("--object")
        p.add_argument("--at", help="valid time (default now)"), p.add_argument("--known-at", help="known time (default now)")
        p.add_argument("--scope", action="append", metavar="KEY=VALUE")
        p.add_argument("--undated", action=argparse.BooleanOptionalAction, default=True,
                       help="list facts whose start is unknown under their own heading (default)")
        p.add_argument("--state", action="append", help="states to list (default: served states)")
        _typed(p)
        p.add_argument("--json", action="store_true")
        p.set_defaults(handler=handler)
    history = sub.add_parser("history", help="every version of a fact")
    history.add_argument("fact_id"), history.add_argument("--json", action="store_true")
    history.set_defaults(handler=cmd_history)
    chain = sub.add_parser("chain", help="evolution of (subject, predicate) in valid-time order")
    chain.add_argument("subject"), chain.add_argument("predicate"), chain.add_argument("--known-at")
    chain.add_argument("--json", action="store_true")
    chain.set_defaults(handler=cmd_chain)
    who = sub.add_parser("who", help="every relation of an entity at a point")
    who.add_argument("entity"), who.add_argument("--at"), who.add_argument("--known-at")
    who.add_argument("--json", action="store_true")
    who.set_defaults(handler=cmd_who)
    conflicts = sub.add_parser("conflicts", help="writes kept, not applied")
    conflicts.add_argument("--all", action="store_true"), conflicts.add_argument("--json", action="store_true")
    conflicts.set_defaults(handler=cmd_conflicts)
    resolve = sub.add_parser("resolve", help="decide a conflict")
    resolve.add_argument("conflict_id")
    resolve.add_argument("--decision", required=True, choices=DECISIONS)
    resolve.add_argument("--at"), resolve.add_argument("--scope", action="append", metavar="KEY=VALUE")
    resolve.add_argument("--reason")
    resolve.set_defaults(handler=cmd_resolve)
    predicate = sub.add_parser("predicate", help="define a predicate's cardinality and inverse")
    predicate.add_argument("name"), predicate.add_argument("--cardinality", choices=CARDINALITIES, default="single")
    predicate.add_argument("--inverse")
    predicate.set_defaults(handler=cmd_predicate)


def _out(args: argparse.Namespace, value: Any, text: str) -> int:
    print(to_json(value) if getattr(args, "json", False) else text)
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    """Record a claim."""
    fact = connected(args).add_fact(args.subject, args.predicate, _object(args, args.object),
                                    valid_from=args.valid_from, valid_to=args.valid_to, scope=_scope(args.scope),
                                    statement=args.statement, operational=args.operational)
    return _out(args, fact, fact_line(fact))


def cmd_correct(args: argparse.Namespace) -> int:
    """Correct a fact."""
    changes: dict[str, Any] = {}
    if args.object is not None:
        changes["object"] = _object(args, args.object)
    for field in ("statement", "valid_from", "valid_to"):
        if getattr(args, field) is not None:
            changes[field] = getattr(args, field)
    fact = connected(args).correct_fact(args.fact_id, **changes)
    return _out(args, fact, fact_line(fact))


def cmd_succeed(args: argparse.Namespace) -> int:
    """Record a succession."""
    fact = connected(args).succeed_fact(args.fact_id, object=_object(args, args.object), at=args.at)
    return _out(args, fact, fact_line(fact))


def cmd_end(args: argparse.Namespace) -> int:
    """End a fact's validity."""
    fact = connected(args).end_fact(args.fact_id, at=args.at)
    return _out(args, fact, fact_line(fact))


def cmd_retract(args: argparse.Namespace) -> int:
    """Retract a fact."""
    found = connected(args).retract_fact(args.fact_id, reason=args.reason)
    return _out(args, found, facts_block(found))


def cmd_facts(args: argparse.Namespace) -> int:
    """List facts as of a point."""
    found = connected(args).facts(args.subject, args.predicate, _object(args, args.object), valid_at=args.at, known_at=args.known_at,
                                  scope=_scope(args.scope), include_undated=args.undated, states=args.state)
    return _out(args, found, as_of_block(found))


def cmd_history(args: argparse.Namespace) -> int:
    """Every version of a fact."""
    found = connected(args).history(args.fact_id)
    return _out(args, found, facts_block(found))


def cmd_chain(args: argparse.Namespace) -> int:
    """Evolution chain."""
    found = connected(args).chain(args.subject, args.predicate, known_at=args.known_at)
    return _out(args, found, facts_block(found))


def cmd_who(args: argparse.Namespace) -> int:
    """Relations of an entity at a point."""
    found = connected(args).relations(args.entity, valid_at=args.at, known_at=args.known_at)
    lines = [(r.undated, _relation_line(r)) for r in found]
    return _out(args, found, dated_apart(lines, f"no relations of {args.entity} at that point"))


def _relation_line(r: Any) -> str:
    return (f"{'→' if r.direction == 'out' else '←'} {r.predicate}: {r.other}  valid {r.fact.valid_text()}"
            f"{'  [disputed]' if r.fact.disputed else ''}{'  [hypothesis]' if r.fact.epistemic == 'hypothesis' else ''}"
            f"{'  [weak: asserted once by one tool call]' if r.weak else ''}  ({r.fact.fact_id})")


def cmd_conflicts(args: argparse.Namespace) -> int:
    """List conflicts."""
    found = connected(args).conflicts(include_resolved=args.all)
    lines = [f"{c.conflict_id} [{c.status}]\n  established: {fact_line(c.established)}\n  challenger:  "
             f"{fact_line(c.challenger)}" for c in found]
    return _out(args, found, "\n".join(lines) or "no open conflicts")


def cmd_resolve(args: argparse.Namespace) -> int:
    """Resolve a conflict."""
    fact = connected(args).resolve_conflict(args.conflict_id, decision=args.decision, at=args.at,
                                            scope=_scope(args.scope), reason=args.reason)
    return _out(args, fact, fact_line(fact))


def cmd_predicate(args: argparse.Namespace) -> int:
    """Define a predicate."""
    found = connected(args).define_predicate(args.name, cardinality=args.cardinality, inverse=args.inverse)
    return _out(args, found, f"{found.name}: {found.cardinality}" + (f", inverse {found.inverse}" if found.inverse else ""))
