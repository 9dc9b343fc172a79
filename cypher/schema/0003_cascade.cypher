// Migration 0003: lookups for the cascade (issue 5): summaries by tenant and state (served reads, stale()).
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE INDEX summary_state IF NOT EXISTS FOR (n:Summary) ON (n.tenant, n.state);
