// Migration 0010: drop the global `fact_embedding` vector index of migration 0001. Search reads only a tenant's own
// vectors (an exact scan below 500 versions, the tenant's partition index above: graph/search_partition.py), and so
// does forget verification's vector probe (cypher/read_fact_copies.cypher); the global index was read by nothing
// and cost every ingest a second HNSW insertion per version. Idempotent; statements end with ';'.

DROP INDEX fact_embedding IF EXISTS;
