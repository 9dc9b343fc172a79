// Migration 0024: the ledger read by known time (issue 27). The transition check (read_transition_events.cypher)
// reads a tenant's events of a known window: an index on (tenant, at) gives it the window by a range seek, where
// the tenant's index alone read the tenant's whole ledger and filtered it (tests/graph/truth/test_transition_plan.py).
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE INDEX audit_tenant_at IF NOT EXISTS FOR (n:AuditEvent) ON (n.tenant, n.at);
