// Migration 0011: the global `fact_text` full-text index covers only the versions of tenants without their own
// full-text index (label `:FactText`), so a partitioned tenant's version enters one full-text index, not two. Its
// data step (graph/migrate_text.py) labels the versions of every tenant without a ready partition full-text index.
// Idempotent; statements end with ';'.

DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:FactText) ON EACH [n.statement, n.quote, n.tenant];
