// How many remembered (not forgotten) nodes still hold content sealed under each key: a fact key's users are the
// versions about its subject entity sealed with it, a source key's user is the source itself.
// clearance: not applied: crypto-erasure bookkeeping (which versions need a key), no content
// $tenant  tenant id
// $rows    list of {key_id, kind ('entity' or 'source'), id (entity id or source id)}
// returns: key_id, users
UNWIND $rows AS row
CALL (row) {
  OPTIONAL MATCH (:Entity {entity_id: row.id})<-[:ABOUT {role: 'subject'}]-(f:Fact)
  WHERE row.kind = 'entity' AND f.tenant = $tenant AND f.crypto_key = row.key_id AND f.forgotten_at IS NULL
  RETURN count(f) AS facts
}
CALL (row) {
  OPTIONAL MATCH (s:Source {source_id: row.id})
  WHERE row.kind = 'source' AND s.tenant = $tenant AND s.crypto_key = row.key_id AND s.forgotten_at IS NULL
  RETURN count(s) AS sources
}
RETURN row.key_id AS key_id, facts + sources AS users
