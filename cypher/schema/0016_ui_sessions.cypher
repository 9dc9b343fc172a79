// Migration 0016: the inspector's server-side sessions (issue 24): one :UiSession node per login, found by the sha256
// of the opaque id the browser holds (never the id itself), revoked with its key, purged once past its absolute end.
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE CONSTRAINT ui_session_id_hash IF NOT EXISTS FOR (s:UiSession) REQUIRE s.id_hash IS UNIQUE;
CREATE INDEX ui_session_key IF NOT EXISTS FOR (s:UiSession) ON (s.key_id);
CREATE INDEX ui_session_expires IF NOT EXISTS FOR (s:UiSession) ON (s.expires_at);
