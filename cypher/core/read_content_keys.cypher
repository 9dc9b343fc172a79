// The crypto-erasure keys that sealed the content of the given facts (every version) and sources.
// clearance: not applied: crypto-erasure bookkeeping (key ids), no content
// $tenant      tenant id
// $fact_ids    fact ids
// $source_ids  source ids
// returns: keys (distinct key ids, none when the content was stored in plaintext)
CALL (*) {
  UNWIND $fact_ids AS fid
  MATCH (f:Fact {fact_id: fid})
  WHERE f.tenant = $tenant AND f.crypto_key IS NOT NULL
  RETURN collect(DISTINCT f.crypto_key) AS fact_keys
}
CALL (*) {
  UNWIND $source_ids AS sid
  MATCH (s:Source {source_id: sid})
  WHERE s.tenant = $tenant AND s.crypto_key IS NOT NULL
  RETURN collect(DISTINCT s.crypto_key) AS source_keys
}
RETURN fact_keys + [k IN source_keys WHERE NOT k IN fact_keys] AS keys
