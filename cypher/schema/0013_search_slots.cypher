// Migration 0013: search partition slots (issue 9). A slot is a label with an empty vector index and an empty
// full-text index of its own, made ahead of the tenants that will take it: a tenant that grows past the search
// threshold claims a free slot instead of creating indexes, so its growth never runs DDL, and DDL empties Neo4j's
// whole plan cache (every query of every tenant planned again, 130-450 ms for search, ≈ 0.5 s for a bulk write's
// statements). Its data step (graph/search_partition.py `make_slots`) makes the first slots and the pool node.
// Partitions opened before keep the label and indexes they name. Idempotent; statements end with ';'.

CREATE CONSTRAINT search_slot_number IF NOT EXISTS FOR (s:SearchSlot) REQUIRE s.n IS UNIQUE;
CREATE CONSTRAINT search_slot_pool IF NOT EXISTS FOR (p:SearchSlotPool) REQUIRE p.id IS UNIQUE;
