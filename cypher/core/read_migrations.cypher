// Applied schema migrations, oldest first.
// returns: version, name, checksum, applied_at
MATCH (m:SchemaMigration)
RETURN m.version AS version, m.name AS name, m.checksum AS checksum, m.applied_at AS applied_at
ORDER BY m.version
