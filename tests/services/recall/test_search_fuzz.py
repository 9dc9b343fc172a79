"""Fuzzed search: random tenants, sensitivities and queries; zero leaks, and nothing filtered takes a slot."""

from __future__ import annotations

import random

from credo.schema.search import CLEARANCES, can_see
from credo.services.recall.search_rules import words

VOCAB = ["apple", "river", "stone", "cloud", "ember", "maple", "quartz", "delta", "harbor", "violet", "orbit", "cedar"]
LEVELS = [None, "public", "internal", "confidential", "secret", "restricted"]


def test_fuzzed_tenants_and_clearances_never_leak_and_filtered_items_never_displace_visible_ones(store):
    rng = random.Random(11)
    tenants = [store.for_tenant(f"{store.tenant}-{i}") for i in range(3)]
    written: dict[str, list[tuple[str, str | None]]] = {t.tenant: [] for t in tenants}
    for t in tenants:
        rows = []
        for n in range(40):
            text = " ".join(rng.sample(VOCAB, rng.randint(2, 4))) + f" item{n}"
            level = rng.choice(LEVELS)
            rows.append({"subject": f"S{n}", "predicate": "notes", "object": credo_text(text), "statement": text,
                         "sensitivity": level})
            written[t.tenant].append((text, level))
        t.add_facts(rows)
    for _ in range(60):
        caller = rng.choice(tenants)
        clearance = rng.choice(CLEARANCES)
        query = " ".join(rng.sample(VOCAB, rng.randint(1, 3)))
        limit = rng.choice([1, 3, 5, 10, 50])
        found = caller.for_tenant(caller.tenant, clearance=clearance).search(query, kinds=["fact"], limit=limit)
        visible = {text for text, level in written[caller.tenant]
                   if can_see(clearance, level) and set(words(text)) & set(words(query))}
        texts = [h.text for h in found.hits]
        # zero leaks: every hit is the caller's, within its clearance
        assert all(h.fact.tenant == caller.tenant and can_see(clearance, h.fact.sensitivity) for h in found.hits)
        # nothing filtered out took a slot: the top `limit` is full whenever enough visible items match
        assert set(texts) <= visible and len(texts) == min(limit, len(visible)), (query, clearance, limit)


def credo_text(value: str):
    """A text literal object (not an entity name)."""
    import credo

    return credo.text(value)


def test_fuzzed_vector_searches_never_leak_and_what_the_index_cannot_filter_never_takes_a_slot(neo4j_db, tenant, clock):
    # the vector path alone: the index filters tenant, known and valid time and sensitivity inside its search; the
    # state (on flags) is filtered after it, widening while short, so the top `limit` is still full
    from credo.schema.commands import build
    from credo.schema.commands_search import SearchQuery
    from credo.services.recall import search as search_service
    from credo.services.recall import search_rules as rules
    from credo.services.adapters.embeddings import default_embedder
    from credo.store import Store

    rng = random.Random(25)
    embedder = default_embedder()
    base = Store(neo4j_db, tenant=tenant, embedder=embedder, _clock=clock, _owns_db=False)
    tenants = [base.for_tenant(f"{tenant}-{i}") for i in range(3)]
    written: dict[str, list[dict]] = {t.tenant: [] for t in tenants}
    clock.at("2024-06-01")
    for t in tenants:
        rows = [{"subject": f"S{n}", "predicate": "notes", "statement": " ".join(rng.sample(VOCAB, 3)) + f" item{n}",
                 "sensitivity": rng.choice(LEVELS), "valid_from": rng.choice(["2019-01-01", "2023-01-01"]),
                 "valid_to": rng.choice([None, None, "2025-01-01"])} for n in range(40)]
        facts = t.add_facts([{**r, "object": credo_text(r["statement"])} for r in rows])
        for row, fact in zip(rows, facts):
            written[t.tenant].append({**row, "fact_id": fact.fact_id, "state": "active"})
    clock.at("2024-07-01")
    for t in tenants:  # a third restated (reinforced: a flag, not a new version), a few retracted (closed)
        chosen = rng.sample(written[t.tenant], 16)
        t.add_facts([{"subject": r["subject"], "predicate": "notes", "object": credo_text(r["statement"]),
                      "statement": r["statement"], "sensitivity": r["sensitivity"], "valid_from": r["valid_from"],
                      "valid_to": r["valid_to"]} for r in chosen[:12]])
        for r in chosen[:12]:
            r["state"] = "reinforced"
        for r in chosen[12:]:
            t.retract_fact(r["fact_id"], reason="fuzz")
            r["state"] = "retracted"
    clock.at("2024-08-01")
    for _ in range(30):
        caller = rng.choice(tenants)
        clearance = rng.choice(CLEARANCES)
        query = " ".join(rng.sample(VOCAB, rng.randint(1, 3)))
        limit = rng.choice([1, 3, 5, 10, 50])
        valid_at = rng.choice([None, "2020-06-01", "2026-01-01"])
        states = rng.choice([None, ["active"]])
        viewer = caller.for_tenant(caller.tenant, clearance=clearance)
        cmd = build(SearchQuery, query=query, kinds=["fact"], limit=limit, valid_at=valid_at, states=states)
        found = search_service.search(viewer._ctx, cmd, paths=frozenset({"vector"})).hits
        [q] = embedder.embed([query])
        served = {"active"} if states else {"active", "reinforced"}
        at = valid_at or "2024-08-01"
        eligible = {}
        for r in written[caller.tenant]:
            if r["state"] in served and can_see(clearance, r["sensitivity"]) and r["valid_from"] <= at \
                    and (r["valid_to"] is None or r["valid_to"] > at):
                [v] = embedder.embed([r["statement"]])
                eligible[r["statement"]] = sum(a * b for a, b in zip(q, v))
        floor = rules.vector_floor(query)
        above = [s for s, c in eligible.items() if c >= floor]
        if any(abs(c - floor) < 1e-3 for c in eligible.values()):
            continue  # a cosine on the floor: float noise may decide it either way
        # zero leaks: every hit is the caller's, within its clearance, served at the asked times
        assert all(h.fact.tenant == caller.tenant and h.text in eligible for h in found), (query, clearance)
        # nothing filtered took a slot: the top `limit` is full whenever enough eligible versions are near enough
        assert len(found) == min(limit, len(above)), (query, clearance, limit, valid_at, states)
