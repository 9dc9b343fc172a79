// Migration 0018: search on the server's filtered vector search (issue 25). Neo4j 2026.01+ (Cypher 25) filters inside
// a vector index on the properties its `WITH [...]` lists, so one index over every fact version serves every tenant:
// each version gets the filter keys (tenant, known and valid interval as integer epoch milliseconds, an open end as
// 9007199254740991 and an open start as its negative, sensitivity as a rank: schema/search.py search_keys
// writes them from now on), the global `fact_embedding` index of migration 0001 (dropped by 0010) is replaced by
// `fact_search`, and `fact_text` covers every version again (not only `:FactText`). The per-tenant partitions of
// migrations 0006, 0011 and 0013 go: their constraints here, their labels, slot indexes and nodes in the data step
// (graph/migrate_search.py). The index keeps full-precision vectors (`vector.quantization.type: 'none'`): the default
// BINARY quantization found 0.918 of the true top 10 on 15k YAGO statements against 0.980 (bench/RESULTS.md, "Issue
// 25 — vector storage"). Idempotent; statements end with ';'.

DROP CONSTRAINT search_partition_tenant IF EXISTS;
DROP CONSTRAINT search_slot_number IF EXISTS;
DROP CONSTRAINT search_slot_pool IF EXISTS;
DROP INDEX fact_embedding IF EXISTS;
MATCH (f:Fact) WHERE f.known_to_key IS NULL OR f.sensitivity_rank IS NULL
CALL (f) {
  SET f += {known_from_key: f.known_from.epochMillis,
            known_to_key: coalesce(f.known_to.epochMillis, 9007199254740991),
            valid_from_key: coalesce(f.valid_from.epochMillis, -9007199254740991),
            valid_to_key: coalesce(f.valid_to.epochMillis, 9007199254740991),
            sensitivity_rank: CASE coalesce(toLower(f.sensitivity), 'internal')
              WHEN 'public' THEN 0 WHEN 'internal' THEN 1 WHEN 'confidential' THEN 2 WHEN 'secret' THEN 3 ELSE 4 END}
} IN TRANSACTIONS OF 10000 ROWS;
CYPHER 25 CREATE VECTOR INDEX fact_search IF NOT EXISTS FOR (f:Fact) ON f.embedding
WITH [f.tenant, f.known_from_key, f.known_to_key, f.valid_from_key, f.valid_to_key, f.sensitivity_rank]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine',
                        `vector.quantization.type`: 'none'}};
DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.statement, n.quote, n.tenant];
CALL db.awaitIndexes(600);
