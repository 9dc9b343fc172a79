"""Fuzzed search: random tenants, sensitivities and queries; zero leaks, and nothing filtered takes a slot."""

from __future__ import annotations

import random

from credo.schema.search import CLEARANCES, can_see
from credo.services.search_rules import words

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
