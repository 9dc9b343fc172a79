// Current versions that depend (by a believed DEPENDS_ON edge) on any version of the given facts, with all
// their believed premises; one step of the cascade's backward walk, seeking by fact id (no label scan).
// $tenant    tenant id
// $fact_ids  premise fact ids
// returns: fact, premises (list of {justification, fact_id})
UNWIND $fact_ids AS id
MATCH (:Fact {fact_id: id})<-[d:DEPENDS_ON]-(dep:Fact)
WHERE d.known_to IS NULL AND dep.known_to IS NULL AND dep.tenant = $tenant
WITH DISTINCT dep
MATCH (dep)-[j:DEPENDS_ON]->(p:Fact)
WHERE j.known_to IS NULL
RETURN dep {.*, embedding: null, disputed: false} AS fact,
       collect({justification: j.justification, fact_id: p.fact_id}) AS premises
