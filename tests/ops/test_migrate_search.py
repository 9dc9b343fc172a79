"""Migration 0018: a store with the per-tenant search partitions of earlier releases (partition and slot labels,
their own vector and full-text indexes, `:FactText`, the nodes that recorded them, versions without search keys)
ends with the one filtered vector index: every version keyed, every leftover gone, search answering the same, and
running the migration again changes nothing."""

from __future__ import annotations

from credo import cypher
from credo.ops.migrate import statements
from credo.ops.migrate_search import drop_partitions
from credo.services.adapters.embeddings import default_embedder
from credo.store import Store


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_KEYS = ("known_from_key", "known_to_key", "valid_from_key", "valid_to_key", "sensitivity_rank")
# what releases before issue 25 left: a claimed slot (label, vector and full-text index, slot and partition nodes),
# a partition opened before slots (label named by a digest), and :FactText on versions of small tenants
_OLD_SHAPE = [
    "CREATE VECTOR INDEX fact_embedding_s_990 IF NOT EXISTS FOR (n:SearchS_990) ON n.embedding "
    "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
    "CREATE FULLTEXT INDEX fact_text_s_990 IF NOT EXISTS FOR (n:SearchS_990) ON EACH [n.statement, n.quote]",
    "CREATE FULLTEXT INDEX fact_text_t_0123456789abcdef0123 IF NOT EXISTS FOR (n:SearchT_0123456789abcdef0123) "
    "ON EACH [n.statement, n.quote]",
]
_OLD_NODES = _Q("""
MERGE (pool:SearchSlotPool {id: 'pool'})
MERGE (s:SearchSlot {n: 990}) SET s.label = 'SearchS_990', s.index = 'fact_embedding_s_990',
  s.text_index = 'fact_text_s_990'
MERGE (p:SearchPartition {tenant: $big}) SET p.label = 'SearchS_990', p.index = 'fact_embedding_s_990', p.ready = true
MERGE (p)-[:USES]->(s)
WITH 1 AS go
MATCH (f:Fact) WHERE f.tenant = $big SET f:SearchS_990 REMOVE f.known_from_key, f.known_to_key, f.valid_from_key,
  f.valid_to_key, f.sensitivity_rank
WITH count(*) AS n
MATCH (f:Fact) WHERE f.tenant = $old SET f:SearchT_0123456789abcdef0123
WITH count(*) AS n
MATCH (f:Fact) WHERE f.tenant = $small SET f:FactText REMOVE f.known_from_key, f.known_to_key, f.valid_from_key,
  f.valid_to_key, f.sensitivity_rank
RETURN count(*) AS n
""")
_STATE = _Q("""
MATCH (f:Fact) WHERE f.tenant IN $tenants
RETURN f.fact_id AS fact_id, [l IN labels(f) WHERE l <> 'Fact'] AS labels,
       [k IN $keys | f[k]] AS keys ORDER BY fact_id
""")
_LEFT = _Q("MATCH (n) WHERE n:SearchPartition OR n:SearchSlot OR n:SearchSlotPool RETURN count(n) AS n")


def _migrate_0018(db) -> None:
    [(_, _, text)] = [m for m in cypher.migrations() if m[0] == 18]
    for statement in statements(text):
        db.run_schema(statement)
    drop_partitions(db)


def test_a_store_with_partitions_loses_them_and_every_version_gets_its_search_keys(neo4j_db, tenant, clock):
    # given three tenants written as today, then put in the old shape (their keys gone, their labels and indexes made)
    embedder = default_embedder()
    big, small, old = (Store(neo4j_db, tenant=f"{tenant}_{n}", embedder=embedder, _clock=clock, _owns_db=False)
                       for n in ("big", "small", "old"))
    for store, word in ((big, "espresso"), (small, "espresso"), (old, "granite")):
        store.add_facts([{"subject": f"Cafe {i}", "predicate": "serves", "object": f"{word} {i}",
                          "statement": f"Cafe {i} serves {word}", "sensitivity": "secret" if i == 0 else None}
                         for i in range(5)])
    tenants = [big.tenant, small.tenant, old.tenant]
    before = {r["fact_id"]: r["keys"] for r in neo4j_db.query(_STATE, tenants=tenants, keys=list(_KEYS))}
    asked = {s.tenant: [h.text for h in s.search("espresso at a cafe", kinds=["fact"]).hits] for s in (big, small)}
    for ddl in _OLD_SHAPE:
        neo4j_db.run_schema(ddl)
    neo4j_db.query(_OLD_NODES, write=True, big=big.tenant, small=small.tenant, old=old.tenant)
    # when migration 0018 runs (twice: it is idempotent)
    _migrate_0018(neo4j_db)
    _migrate_0018(neo4j_db)
    # then every version has no label but Fact and the keys the create statement writes
    after = neo4j_db.query(_STATE, tenants=tenants, keys=list(_KEYS))
    assert all(r["labels"] == [] for r in after), after
    assert {r["fact_id"]: r["keys"] for r in after} == before
    # and the partitions' indexes and nodes are gone, the one vector index is online
    indexes = {i["name"]: i for i in neo4j_db.query(_Q("SHOW INDEXES YIELD name, type, state RETURN name, type, state"))}
    assert not [n for n in indexes if n.startswith(("fact_embedding_s_", "fact_text_s_", "fact_text_t_"))]
    assert indexes["fact_search"]["type"] == "VECTOR" and indexes["fact_search"]["state"] == "ONLINE"
    assert neo4j_db.query(_LEFT)[0]["n"] == 0
    # and search answers as before, each tenant its own
    assert {s.tenant: [h.text for h in s.search("espresso at a cafe", kinds=["fact"]).hits]
            for s in (big, small)} == asked
    assert all(h.fact.tenant == small.tenant for h in small.search("espresso", kinds=["fact"]).hits)
