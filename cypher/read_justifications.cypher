// The DEPENDS_ON edges of a fact's versions believed at a known time, with the premise version each names.
// $tenant    tenant id
// $fact_id   dependent fact id
// $known_at  known-time point (far future = believed now)
// returns: justification, known_from, fact_id, version_id, statement
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant AND @believed_at(f, $known_at)
MATCH (f)-[d:DEPENDS_ON]->(p:Fact)
WHERE @believed_at(d, $known_at)
RETURN DISTINCT d.justification AS justification, d.known_from AS known_from, p.fact_id AS fact_id,
       p.version_id AS version_id, p.statement AS statement
ORDER BY known_from, justification, fact_id
