// Remove forgotten content a cascade copied into dependents' stale causes (the premise statement it quoted).
// $tenant    tenant id
// $fact_ids  forgotten premise fact ids
// $texts     content texts
// $note      what is left in place of the cause
// returns: scrubbed
MATCH (d:Fact)-[:DEPENDS_ON]->(p:Fact)
WHERE p.fact_id IN $fact_ids AND d.tenant = $tenant AND d.stale_cause IS NOT NULL
  AND any(t IN $texts WHERE d.stale_cause CONTAINS t)
SET d.stale_cause = $note
RETURN count(DISTINCT d) AS scrubbed
