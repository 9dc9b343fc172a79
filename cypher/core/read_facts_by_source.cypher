// The current versions of the facts a source is evidence for (a believed SOURCED_FROM or ACCEPTED_IN edge), each
// with its state flag believed now: what quarantine and release act on (those the caller may see: a curator never
// moves a fact above its clearance).
// $tenant     tenant id
// $source_id  source id
// $levels     sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: fact (one row per version, by fact id)
MATCH (s:Source {source_id: $source_id})<-[r:SOURCED_FROM|ACCEPTED_IN]-(f:Fact)
WHERE s.tenant = $tenant AND f.tenant = $tenant AND r.known_to IS NULL AND f.known_to IS NULL
  AND @visible(f, $levels)
WITH DISTINCT f
RETURN f {@fact_fields(f, null), disputed: false} AS fact
ORDER BY f.fact_id
