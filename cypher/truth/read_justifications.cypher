// The DEPENDS_ON edges of a fact's versions believed at a known time (those the caller may see), with the premise
// version each names: a premise above the caller's clearance comes without its statement, marked withheld (it still
// counts for whether its justification holds).
// $tenant    tenant id
// $fact_id   dependent fact id
// $known_at  known-time point (far future = believed now)
// $levels    sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: justification, known_from, fact_id, version_id, statement (null when withheld), withheld
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant AND @believed_at(f, $known_at) AND @visible(f, $levels)
MATCH (f)-[d:DEPENDS_ON]->(p:Fact)
WHERE @believed_at(d, $known_at)
RETURN DISTINCT d.justification AS justification, d.known_from AS known_from, p.fact_id AS fact_id,
       p.version_id AS version_id, CASE WHEN @visible(p, $levels) THEN p.statement END AS statement,
       NOT @visible(p, $levels) AS withheld
ORDER BY known_from, justification, fact_id
