// The versions a transition check names (what writes asked to add, what the belief diff shows added), as the caller
// may see them, with what grounds each at the window's end: its sources (quoted or not) and the messages that
// accepted it, drawn by then (a citation made later does not ground it after the fact); counts only.
// $tenant       tenant id
// $version_ids  list of version ids
// $known_after  the window's end: edges drawn after it are left out
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: version_id, fact_id, known_from, quotes, sources, accepted
UNWIND $version_ids AS vid
MATCH (f:Fact {version_id: vid})
WHERE f.tenant = $tenant AND @visible(f, $levels)
RETURN f.version_id AS version_id, f.fact_id AS fact_id, f.known_from AS known_from,
       COUNT { MATCH (f)-[q:SOURCED_FROM]->(:Source)
               WHERE q.quote IS NOT NULL AND coalesce(q.known_from <= $known_after, true) } AS quotes,
       COUNT { MATCH (f)-[r:SOURCED_FROM]->(:Source) WHERE coalesce(r.known_from <= $known_after, true) } AS sources,
       COUNT { MATCH (f)-[a:ACCEPTED_IN]->(:Source) WHERE coalesce(a.known_from <= $known_after, true) } AS accepted
