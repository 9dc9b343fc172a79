// Migration 0009: a forget's stored probe (issue 12) is found by its tenant and target id.
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE CONSTRAINT forget_probe_target IF NOT EXISTS FOR (n:ForgetProbe) REQUIRE (n.tenant, n.target_id) IS UNIQUE;
