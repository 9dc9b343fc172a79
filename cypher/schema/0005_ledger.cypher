// Migration 0005: the hash-chained audit ledger (issue 12 item 5) is read in chain order per tenant, and the
// utility ledger (item 6) keeps one :Recall per served fact per read receipt and one :Usage per memory.
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE INDEX audit_seq IF NOT EXISTS FOR (n:AuditEvent) ON (n.tenant, n.seq);
CREATE CONSTRAINT recall_key IF NOT EXISTS FOR (n:Recall) REQUIRE (n.tenant, n.receipt_id, n.fact_id) IS UNIQUE;
CREATE CONSTRAINT usage_key IF NOT EXISTS FOR (n:Usage) REQUIRE (n.tenant, n.fact_id) IS UNIQUE;
