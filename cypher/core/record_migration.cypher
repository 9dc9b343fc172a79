// Record that a schema migration was applied (idempotent).
// $version   migration number
// $name      migration name
// $checksum  sha256 of the migration text
// returns: version
MERGE (m:SchemaMigration {version: $version})
ON CREATE SET m.name = $name, m.checksum = $checksum, m.applied_at = datetime()
RETURN m.version AS version
