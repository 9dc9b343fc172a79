// Current summaries whose trace names any version of the given facts or summaries, or the given sources.
// clearance: not applied: truth maintenance judges every version, whatever the writer's clearance; nothing it reads
//   is served (a write's report is cut to the writer's clearance: services/core/clearance.py)
// $tenant       tenant id
// $fact_ids     fact ids
// $summary_ids  summary ids
// $source_ids   source ids
// returns: summary, trace
CALL () {
  UNWIND $fact_ids AS id
  MATCH (:Fact {fact_id: id})<-[:DERIVED_FROM]-(s:Summary)
  WHERE s.known_to IS NULL AND s.tenant = $tenant
  RETURN s
  UNION
  UNWIND $summary_ids AS id
  MATCH (:Summary {summary_id: id})<-[:DERIVED_FROM]-(s:Summary)
  WHERE s.known_to IS NULL AND s.tenant = $tenant
  RETURN s
  UNION
  UNWIND $source_ids AS id
  MATCH (:Source {source_id: id})<-[:DERIVED_FROM]-(s:Summary)
  WHERE s.known_to IS NULL AND s.tenant = $tenant
  RETURN s
}
RETURN s {.*, flag: @flag_at(s, null)} AS summary,
       [(s)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
