// The sensitivity labels of the content an id names, whatever the caller's clearance: what a purge records in its
// tombstone event, so a purged id still answers only a caller who could have seen it.
// The same reach as read_hidden_content.cypher: a fact id (every version), a version id (every version of its fact),
// a source (its own label and every fact version it is evidence for), an entity (every version about it or an id
// merged into it), a summary (every fact and source of its trace, through the summaries it derives from), a recipe
// (every version).
// clearance: not applied: it reads the labels themselves, for the record a purge keeps (never served)
// $tenant  tenant id
// $id      a fact, version, source, entity, summary or recipe id
// returns: labels (list of the labels found, '' for an unlabelled node; empty when the id names nothing)
CALL () {
  MATCH (f:Fact) WHERE f.fact_id = $id AND f.tenant = $tenant
  RETURN f.sensitivity AS label
  UNION ALL
  MATCH (v:Fact {version_id: $id}) WHERE v.tenant = $tenant
  MATCH (f:Fact {fact_id: v.fact_id}) WHERE f.tenant = $tenant
  RETURN f.sensitivity AS label
  UNION ALL
  MATCH (s:Source {source_id: $id}) WHERE s.tenant = $tenant
  RETURN s.sensitivity AS label
  UNION ALL
  MATCH (:Source {source_id: $id, tenant: $tenant})<-[:SOURCED_FROM|ACCEPTED_IN]-(f:Fact)
  RETURN f.sensitivity AS label
  UNION ALL
  MATCH (e:Entity {entity_id: $id}) WHERE e.tenant = $tenant
  MATCH (f:Fact)-[:ABOUT]->(:Entity)-[:MERGED_INTO*0..]->(e)
  RETURN f.sensitivity AS label
  UNION ALL
  MATCH (s:Summary {summary_id: $id}) WHERE s.tenant = $tenant
  MATCH (s)-[:DERIVED_FROM*1..]->(input) WHERE input:Fact OR input:Source
  RETURN input.sensitivity AS label
  UNION ALL
  MATCH (r:Recipe {recipe_id: $id}) WHERE r.tenant = $tenant
  RETURN r.sensitivity AS label
}
RETURN collect(coalesce(label, '')) AS labels
