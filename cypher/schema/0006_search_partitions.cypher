// Migration 0006: per-tenant search partitions (issue 11): one :SearchPartition node per large tenant, naming the
// label its fact versions carry and the vector index over that label. Idempotent; statements end with ';'.

CREATE CONSTRAINT search_partition_tenant IF NOT EXISTS FOR (p:SearchPartition) REQUIRE p.tenant IS UNIQUE;
