"""A tombstone names who forgot: the acting principal (the authenticated key, or the local process user), and apart
from it who the caller said it acted for — never the claimed actor alone, as the ledger does (graph/core/ledger.py)."""

from __future__ import annotations

import pytest

from credo.cypher import Query
from credo.schema.api_keys import Principal
from credo.services.adapters.summarizers import ListSummarizer
from credo.store import Store
from tests.services.forget.test_forget import T0, HashEmbedder

ACTING = "key:k_acting0001"
_REMOVED_BY = Query("raw", "MATCH (m:Summary) WHERE m.tenant = $tenant AND m.content_removed_at IS NOT NULL "
                           "RETURN DISTINCT m.content_removed_by AS by, m.content_removed_on_behalf_of AS behalf",
                    frozenset())
CLAIMED = "the CEO"


@pytest.fixture
def keyed(neo4j_db, tenant, clock) -> Store:
    """A handle acting as an API key, as every REST, MCP and inspector request does."""
    return Store(neo4j_db, principal=Principal(tenant=tenant, actor=ACTING), embedder=HashEmbedder(), _clock=clock,
                 _owns_db=False)


def _target(store: Store, kind: str) -> tuple[str, str]:
    """(id to forget, fact id whose history shows the tombstone) for each kind of target."""
    fact = store.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01",
                          statement="Alice keeps the vault code under her desk")
    store.add_fact("Alice", "works_in", "Basement", valid_from="2024-01-01")
    if kind == "fact":
        return fact.fact_id, fact.fact_id
    if kind == "source":
        [message] = store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "m",
                                                  "text": "Alice keeps the spare key in the drawer.", "at": T0}])
        words = "Alice keeps the spare key in the drawer"
        said = store.remember("s1", words, words, subject="Spare key", predicate="kept_by", object="Alice")
        return message.source_id, said.fact_id
    return fact.subject_id, fact.fact_id  # the entity "Vault": every fact naming it


WAYS = ["fact", "source", "entity"]


@pytest.mark.parametrize("kind", WAYS)
def test_a_tombstone_names_the_acting_key_and_apart_who_it_acted_for(keyed, kind):
    # given something to forget, as a key acting for a claimed person
    target, fact_id = _target(keyed, kind)
    # when it is forgotten with that claim
    result = keyed.forget(target, reason="cleanup", actor=CLAIMED)
    # then the history's tombstone reads "by <acting key> (on behalf of <claimed>) for <reason>"
    [old] = keyed.history(fact_id)
    assert f"by {ACTING} (on behalf of {CLAIMED}) for cleanup" in old.statement, old.statement
    assert old.tombstone.by == ACTING and old.tombstone.on_behalf_of == CLAIMED
    # and so does the residue report, before purge and after (from the ledger's purge event)
    for report in (result.report, keyed.verify_forgotten(target), keyed.purge(target), keyed.verify_forgotten(target)):
        assert report.tombstone is not None, kind
        assert (report.tombstone.by, report.tombstone.on_behalf_of) == (ACTING, CLAIMED), (kind, report.tombstone)
        assert f"by {ACTING} (on behalf of {CLAIMED})" in report.tombstone.text()
    # and the ledger's forget events (one per batch of a subject's job) agree: the key acted, for the claimed person
    events = keyed.audit(operation="forget").items
    assert events and {(e.actor, e.on_behalf_of) for e in events} == {(ACTING, CLAIMED)}


def test_a_summary_whose_content_went_names_the_acting_key_not_the_claimed_actor(keyed):
    # given a summary derived from a fact, and the summary itself forgotten later
    fact = keyed.add_fact("Vault", "code_kept_by", "Alice", valid_from="2024-01-01")
    keyed.add_fact("Alice", "works_in", "Basement", valid_from="2024-01-01")
    derived = keyed.add_summary("vault notes", derived_from=[fact.fact_id], summarizer=ListSummarizer())
    other = keyed.add_summary("basement notes", derived_from=[fact.fact_id], summarizer=ListSummarizer())
    # when the fact is forgotten for a claimed actor, and then the other summary too
    keyed.forget(fact.fact_id, reason="cleanup", actor=CLAIMED)
    report = keyed.forget(other.summary_id, reason="tidy", actor=CLAIMED).report
    # then the removed versions and the forgotten summary's tombstone name the acting key, with the claim apart
    assert report.tombstone.by == ACTING and report.tombstone.on_behalf_of == CLAIMED
    rows = keyed._db.query(_REMOVED_BY, tenant=keyed.tenant)
    assert rows and {(r["by"], r["behalf"]) for r in rows} == {(ACTING, CLAIMED)}, rows
    assert derived.summary_id
