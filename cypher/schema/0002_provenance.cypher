// Migration 0002: lookups for provenance and extraction (issue 4): message claims and consumed marks.
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE INDEX source_claim IF NOT EXISTS FOR (n:Source) ON (n.claimed_by);
CREATE INDEX source_tenant_kind IF NOT EXISTS FOR (n:Source) ON (n.tenant, n.kind);
