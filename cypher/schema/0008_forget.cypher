// Migration 0008: lookups for forgetting (issue 12): a tenant's ledger, summaries, sources, facts and entities found
// without scanning every tenant's nodes (tenant-wide forget, residue checks), and forget jobs by id.
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE INDEX audit_tenant IF NOT EXISTS FOR (n:AuditEvent) ON (n.tenant);
CREATE INDEX summary_tenant IF NOT EXISTS FOR (n:Summary) ON (n.tenant);
CREATE INDEX fact_tenant IF NOT EXISTS FOR (n:Fact) ON (n.tenant);
CREATE INDEX source_tenant IF NOT EXISTS FOR (n:Source) ON (n.tenant);
CREATE INDEX entity_tenant IF NOT EXISTS FOR (n:Entity) ON (n.tenant);
CREATE CONSTRAINT forget_job_id IF NOT EXISTS FOR (n:ForgetJob) REQUIRE n.job_id IS UNIQUE;
