// Migration 0020: the write policy (issue 27 item 1). One :WritePolicy node per version: its id is unique; every
// write transaction reads the tenant's policy in force (read_write_policy) by an index seek on its tenant (a tenant
// has a handful of versions; known_to is null on the one in force, and a range index leaves out null values).
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE CONSTRAINT write_policy_id IF NOT EXISTS FOR (p:WritePolicy) REQUIRE p.policy_id IS UNIQUE;
CREATE INDEX write_policy_tenant IF NOT EXISTS FOR (p:WritePolicy) ON (p.tenant);
