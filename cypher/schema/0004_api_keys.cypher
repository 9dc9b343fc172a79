// Migration 0004: API keys of the service surfaces (issue 10): one :ApiKey node per key, found by its public id.
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.key_id IS UNIQUE;
