// The DEPENDS_ON edges of a fact's versions believed at a known time, with the premise version each names.
// $tenant    tenant id
// $fact_id   dependent fact id
// $known_at  known-time point (far future = believed now)
// returns: justification, known_from, fact_id, version_id, statement
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant AND f.known_from <= $known_at AND (f.known_to IS NULL OR f.known_to > $known_at)
MATCH (f)-[d:DEPENDS_ON]->(p:Fact)
WHERE d.known_from <= $known_at AND (d.known_to IS NULL OR d.known_to > $known_at)
RETURN DISTINCT d.justification AS justification, d.known_from AS known_from, p.fact_id AS fact_id,
       p.version_id AS version_id, p.statement AS statement
ORDER BY known_from, justification, fact_id
