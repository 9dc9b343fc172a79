// The versions a transition check names (what writes asked to add, what the belief diff shows added), as the caller
// may see them, with what grounds each: its sources (quoted or not) and the messages that accepted it; counts only.
// $tenant       tenant id
// $version_ids  list of version ids
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: version_id, fact_id, known_from, quotes, sources, accepted
UNWIND $version_ids AS vid
MATCH (f:Fact {version_id: vid})
WHERE f.tenant = $tenant AND @visible(f, $levels)
RETURN f.version_id AS version_id, f.fact_id AS fact_id, f.known_from AS known_from,
       COUNT { MATCH (f)-[q:SOURCED_FROM]->(:Source) WHERE q.quote IS NOT NULL } AS quotes,
       COUNT { MATCH (f)-[:SOURCED_FROM]->(:Source) } AS sources,
       COUNT { MATCH (f)-[:ACCEPTED_IN]->(:Source) } AS accepted
