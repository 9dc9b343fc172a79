// The facts a source is evidence for (believed versions citing it), each saying whether another live source backs it.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant     tenant id
// $source_id  source id
// returns: fact_id, backed (another believed SOURCED_FROM / ACCEPTED_IN edge to a source not forgotten)
MATCH (s:Source {source_id: $source_id})<-[r:SOURCED_FROM|ACCEPTED_IN]-(f:Fact)
WHERE s.tenant = $tenant AND f.known_to IS NULL AND r.known_to IS NULL
RETURN DISTINCT f.fact_id AS fact_id,
       EXISTS { (f)-[o:SOURCED_FROM|ACCEPTED_IN]->(t:Source)
                WHERE o.known_to IS NULL AND t.source_id <> $source_id AND t.forgotten_at IS NULL } AS backed
