// Migration 0023 (issue 27): the ledger read by known time, and verdicts' reasons among free text.
// The transition check (read_transition_events.cypher) reads a tenant's events of a known window: an index on
// (tenant, at) gives it the window by a range seek, where the tenant's index alone read the tenant's whole ledger and
// filtered it (tests/graph/truth/test_transition_plan.py).
// A verifier's reason may quote a statement (an LLM's does): the `free_text` index (migration 0017) is made again
// with :Verification among its labels, so forgetting finds (and verify_forgotten checks) a verdict on a remembered
// fact whose reason quotes forgotten content (services/forget/rules.py FREE_TEXT). A full-text index cannot be
// altered in place: it is dropped and created, then awaited.
// Statements are separated by a line ending in ';'.

CREATE INDEX audit_tenant_at IF NOT EXISTS FOR (n:AuditEvent) ON (n.tenant, n.at);
DROP INDEX free_text IF EXISTS;
CREATE FULLTEXT INDEX free_text IF NOT EXISTS
FOR (n:AuditEvent|Fact|StateChange|Summary|Entity|Source|ForgetJob|ForgetProbe|ReadReceipt|Verification)
ON EACH [n.reason, n.detail, n.on_behalf_of, n.end_reason, n.lapse_reason, n.stale_cause, n.causes, n.actor,
         n.forgotten_reason, n.forgotten_on_behalf_of, n.content_removed_reason, n.content_removed_on_behalf_of,
         n.query_removed_reason, n.query_removed_on_behalf_of, n.report, n.task, n.tenant];
CALL db.awaitIndexes(600);
