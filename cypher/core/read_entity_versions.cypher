// Every version, in every state and at every known time, of every fact that has a version whose subject is one of
// an entity's ids: the rectangles of the entity's timeline; only versions the caller may see.
// $tenant      tenant id
// $entity_ids  the entity and every id merged into it
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact (instants as ISO 8601 text), one row per version
MATCH (about:Fact)
USING INDEX about:Fact(subject_id)
WHERE about.subject_id IN $entity_ids AND about.tenant = $tenant
WITH DISTINCT about.fact_id AS fact_id
MATCH (f:Fact {fact_id: fact_id})
WHERE f.tenant = $tenant AND @visible(f, $levels)
RETURN @fact_at(f, null) AS fact
