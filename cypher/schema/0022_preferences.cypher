// Migration 0022: preference validation (issue 27 item 3). The tenant flags by (tenant, flag) (read_tenant_flag,
// set_tenant_flag); one :PreferencePosterior node per version, found by (tenant, fact_id) (read_preference) and by
// its unique version id; drift items by (tenant, fact_id) (open_preference_drift) and by (tenant, conflict_id)
// (read_conflicts, close_preference_drift). Each statement is idempotent (IF NOT EXISTS); statements are separated by
// a line ending in ';'.

CREATE INDEX tenant_flag IF NOT EXISTS FOR (s:TenantFlag) ON (s.tenant, s.flag);
CREATE CONSTRAINT preference_version_id IF NOT EXISTS FOR (p:PreferencePosterior) REQUIRE p.version_id IS UNIQUE;
CREATE INDEX preference_fact IF NOT EXISTS FOR (p:PreferencePosterior) ON (p.tenant, p.fact_id);
CREATE INDEX preference_drift_fact IF NOT EXISTS FOR (d:PreferenceDrift) ON (d.tenant, d.fact_id);
CREATE INDEX preference_drift_id IF NOT EXISTS FOR (d:PreferenceDrift) ON (d.tenant, d.conflict_id);
