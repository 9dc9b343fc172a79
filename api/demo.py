"""The guided demo: a who-is-who timeline read at two valid times and two known times, on a real Neo4j."""

from __future__ import annotations

import sys
from datetime import datetime, timezone

from credo.api.render import facts_block
from credo.settings import Settings


def _say(text: str = "") -> None:
    print(text, flush=True)


def run_demo(settings: Settings) -> int:
    """Write and read a small organisation's history in a fresh tenant; returns an exit code."""
    import credo

    tenant = f"demo-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}"
    _say(f"Credo demo — tenant {tenant}")
    with credo.connect(tenant=tenant, settings=settings, embedder=None, progress=lambda m: print(m, file=sys.stderr)) as store:
        store.define_predicate("member_of", cardinality="multi", inverse="has_member")
        store.define_predicate("reports_to", cardinality="single", inverse="manages")
        store.define_predicate("owned_by", cardinality="single", inverse="owns")

        _say("\n1. We record who is who.")
        owner = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
        store.add_fact("Alice", "member_of", "Sales", valid_from="2023-05-01")
        store.add_fact("Bob", "member_of", "Sales", valid_from="2024-02-01")
        store.add_fact("Alice", "reports_to", "Carol", valid_from="2023-05-01")
        first_belief = owner.known_from
        _say(facts_block(store.facts(valid_at="2024-03-01")))

        _say("\n2. A report says Bob owns the account from 2024-02-15 — it contradicts Alice, so it is kept, not applied.")
        bob = store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-02-15")
        _say(f"   new write is {bob.state}; still served: {[f.value for f in store.facts('Acme account', 'owned_by', valid_at='2024-03-01')]}")
        [conflict] = store.conflicts()
        _say("   a person decides: it was a hand-over on 2024-02-15 (succession).")
        store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-02-15")
        after = store.facts("Acme account", "owned_by", valid_at="2024-03-01")[0].known_from

        _say("\n3. Later we learn Alice moved to Support on 2024-06-01 and reports to Dana from then on.")
        sales = store.facts("Alice", "member_of", "Sales")[0]
        store.succeed_fact(sales.fact_id, object="Support", at="2024-06-01")
        carol = store.facts("Alice", "reports_to")[0]
        store.succeed_fact(carol.fact_id, object="Dana", at="2024-06-01")

        _say("\nWho owned the Acme account on 2024-03-01 …")
        for label, known in [("as first believed", first_belief), ("as we know it now", None)]:
            found = store.facts("Acme account", "owned_by", valid_at="2024-03-01", known_at=known)
            _say(f"   {label:<20} → {', '.join(str(f.value) for f in found) or 'nobody'}")
        _ = after

        _say("\nAlice's relations at two valid times (as we know it now):")
        for at in ("2024-03-01", "2024-09-01"):
            rels = store.relations("Alice", valid_at=at)
            _say(f"   {at}: " + "; ".join(f"{r.predicate} {r.other}" for r in rels))
        _say("\nThe evolution of Alice's team:")
        _say(facts_block(store.chain("Alice", "member_of")))
        link = store.path("Bob", "Carol", valid_at="2024-03-01")
        _say("\nHow Bob connects to Carol on 2024-03-01: "
             + (" ; ".join(f"{s.source} {s.predicate} {s.target}" for s in link) if link else "not connected"))
        _say(f"\nExplore it yourself: credo --tenant {tenant} who Alice --at 2024-03-01")
    return 0
