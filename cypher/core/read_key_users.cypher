// How many remembered (not forgotten) nodes still hold content sealed under each key: a fact key's users are the
// versions about its subject entity sealed with it, a source key's user is the source itself, the receipts key's are
// the tenant's receipts whose question is still sealed (their envelopes name the key in a header Cypher cannot read:
// every sealed question counts, so the key is kept while any is left).
// clearance: not applied: crypto-erasure bookkeeping (which versions need a key), no content
// $tenant  tenant id
// $rows    list of {key_id, kind ('entity', 'source' or 'receipts'), id (entity id, source id, or 'questions')}
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
CALL (row) {
  OPTIONAL MATCH (r:ReadReceipt)
  WHERE row.kind = 'receipts' AND r.tenant = $tenant AND r.query STARTS WITH 'enc1:'
  RETURN count(r) AS questions
}
RETURN row.key_id AS key_id, facts + sources + questions AS users
