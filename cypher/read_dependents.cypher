// One step of the cascade's backward walk, seeking by fact id (no label scan): the current versions that depend
// (by a believed DEPENDS_ON edge) on any version of the given facts, with only what the support rule and the report
// need (instants as ISO text: the driver's datetime decoding dominated a large walk), whether each has current
// dependents of its own (so leaves are not walked again), and which facts current summaries derive from (so the
// summary re-check runs only when one does); for the first step, also the given facts' current versions (the
// support rule's view of the changed premises, without another query). One row.
// $tenant      tenant id
// $fact_ids    premise fact ids
// $with_given  whether to return the given facts' current versions
// returns: dependents (list of {fact_id, version_id, state, statement, valid_from, valid_to (ISO text or null),
//          premises (list of [justification, premise fact id]), has_dependents, summarized}),
//          summarized (those of the given fact ids that a current summary derives from),
//          given (list of {fact_id, version_id, state, statement, valid_from, valid_to}, empty unless $with_given)
CALL () {
  UNWIND $fact_ids AS id
  MATCH (:Fact {fact_id: id})<-[d:DEPENDS_ON]-(dep:Fact)
  WHERE d.known_to IS NULL AND dep.known_to IS NULL AND dep.tenant = $tenant
  WITH DISTINCT dep
  RETURN collect({
    fact_id: dep.fact_id, version_id: dep.version_id, state: @state_at(dep, null), statement: dep.statement,
    valid_from: toString(dep.valid_from), valid_to: toString(dep.valid_to),
    premises: [(dep)-[j:DEPENDS_ON WHERE j.known_to IS NULL]->(p:Fact) | [j.justification, p.fact_id]],
    has_dependents: EXISTS {
      MATCH (:Fact {fact_id: dep.fact_id})<-[e:DEPENDS_ON]-(x:Fact)
      WHERE e.known_to IS NULL AND x.known_to IS NULL AND x.tenant = $tenant
    },
    summarized: EXISTS {
      MATCH (:Fact {fact_id: dep.fact_id})<-[:DERIVED_FROM]-(s:Summary)
      WHERE s.known_to IS NULL AND s.tenant = $tenant
    }
  }) AS dependents
}
CALL () {
  UNWIND $fact_ids AS id
  WITH DISTINCT id
  WHERE EXISTS {
    MATCH (:Fact {fact_id: id})<-[:DERIVED_FROM]-(s:Summary)
    WHERE s.known_to IS NULL AND s.tenant = $tenant
  }
  RETURN collect(id) AS summarized
}
CALL () {
  UNWIND CASE WHEN $with_given THEN $fact_ids ELSE [] END AS id
  MATCH (f:Fact {fact_id: id})
  WHERE f.known_to IS NULL AND f.tenant = $tenant
  RETURN collect({fact_id: f.fact_id, version_id: f.version_id, state: @state_at(f, null), statement: f.statement,
                  valid_from: toString(f.valid_from), valid_to: toString(f.valid_to)}) AS given
}
RETURN dependents, summarized, given
