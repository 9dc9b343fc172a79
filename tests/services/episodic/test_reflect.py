"""Reflection reads episodes and proposes semantic candidates; it writes nothing semantic (DESIGN §9: the two kinds
meet at the reflection boundary, never in one write) — its one write is the ledger event saying it ran."""

from __future__ import annotations

from collections import Counter

from credo.cypher import Query
from credo.schema.api_keys import Principal
from credo.services.adapters.extractors import ScriptedExtractor

# every node of the tenant, by label, and by kind for facts
_NODES = Query("raw", "MATCH (n {tenant: $tenant}) RETURN labels(n)[0] + coalesce(':' + n.kind, '') AS label, "
                      "count(*) AS n", frozenset({"tenant"}))


def _census(store) -> Counter:
    return Counter({r["label"]: r["n"] for r in store._db.query(_NODES, tenant=store.tenant)})


def _rides(store, clock):
    clock.at("2025-05-10T12:00:00+00:00")
    rides = [store.add_fact("Alice", "took", "the 8:10 train", kind="episodic", valid_from=f"2025-05-0{day}T08:10:00Z",
                            object_is_entity=False, statement="Alice took the 8:10 train")
             for day in (5, 6, 7)]
    once = store.add_fact("Alice", "took", "a taxi", kind="episodic", valid_from="2025-05-08T08:10:00Z",
                          object_is_entity=False, statement="Alice took a taxi")
    secret = [store.add_fact("Alice", "visited", "the clinic", kind="episodic", valid_from=f"2025-05-0{day}T15:00:00Z",
                             object_is_entity=False, sensitivity="secret", statement="Alice visited the clinic")
              for day in (5, 6)]
    return rides, once, secret


def test_a_reflection_proposes_what_recurs_and_writes_nothing_but_its_ledger_event(store, clock):
    rides, _once, secret = _rides(store, clock)
    semantic_before = store.facts(subject="Alice")
    census_before = _census(store)
    # when a reflection runs over the window, by a caller cleared for internal labels
    internal = store.for_principal(Principal(tenant=store.tenant, clearance="internal"))
    found = internal.reflect(entity="Alice", from_="2025-05-01", to="2025-06-01")
    # then the claim stated by three episodes is proposed, with the episodes it came from; the one-off and the
    # secret ones (which the caller may not see) are not
    assert (found.episodes, found.proposer) == (4, "recurrence")
    [proposal] = found.proposals
    assert (proposal.statement, proposal.subject, proposal.predicate, proposal.object) == (
        "Alice took the 8:10 train", "Alice", "took", "the 8:10 train")
    assert [e.fact_id for e in proposal.episodes] == [r.fact_id for r in rides]
    assert "3 times" in proposal.reason
    # and nothing semantic was written: the same facts, the same nodes but the one ledger event of the run
    assert store.facts(subject="Alice") == semantic_before
    census_after = _census(store)
    assert census_after - census_before == Counter({"AuditEvent": 1}) and census_before - census_after == Counter()
    [event] = store.audit(operation="reflect").items
    assert event.detail["proposals"] == 1 and event.detail["episodes"] == 4
    # a caller cleared for all sees the secret episodes recur too
    assert len(store.reflect(entity="Alice").proposals) == 2 and secret


def test_a_reflection_through_the_extractor_proposes_its_semantic_candidates_with_their_episodes(store, clock):
    rides, once, _secret = _rides(store, clock)
    extractor = ScriptedExtractor([lambda segment, _c: [
        {"statement": "Alice commutes by train", "subject": "Alice", "predicate": "commutes_by", "object": "train",
         "source_index": 0, "kind": "semantic"},
        {"statement": "Alice took a taxi", "subject": "Alice", "predicate": "took", "object": "a taxi",
         "source_index": 3, "kind": "episodic"},  # an episode again: not a semantic candidate
    ]])
    census_before = _census(store)
    found = store.reflect(entity="Alice", to="2025-05-09", extractor=extractor)
    assert found.proposer == "extractor"
    [proposal] = found.proposals
    assert proposal.statement == "Alice commutes by train" and [e.fact_id for e in proposal.episodes] == [
        rides[0].fact_id]
    [(positions, _candidates)] = extractor.calls
    assert len(positions) == 6  # every episode of the window, as numbered observations
    assert _census(store) - census_before == Counter({"AuditEvent": 1})
    assert once


def test_a_proposal_becomes_semantic_only_through_the_gate(store, clock):
    rides, _once, _secret = _rides(store, clock)
    [proposal, _clinic] = store.reflect(entity="Alice").proposals
    assert store.facts(subject="Alice", predicate="commutes_by") == []
    # a curator admits it by writing it (its episodes cited as the reason it was considered)
    admitted = store.add_fact(proposal.subject, "commutes_by", "train", statement="Alice commutes by train")
    assert admitted.kind == "semantic" and store.facts(subject="Alice", predicate="commutes_by")[0].fact_id == (
        admitted.fact_id)
    assert len(store.timeline(entity="Alice")) == 6 and rides
