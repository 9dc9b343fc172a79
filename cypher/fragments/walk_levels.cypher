// Two levels of the cascade's backward walk from the list of versions VERSION (every version of the facts walked
// back from), as CALL clauses returning dependents, expanded, summarized and given (read_dependents_level.cypher's
// header says what each holds); POINT says whether `given` is filled (true / false / a $parameter). Shared by the
// walk's own query and by the statements that start the walk while they close versions (one round trip fewer).
// The caller binds `met` (version ids the walk already projected: not projected again) and `done` (fact ids whose
// versions it already expanded: not expanded again). A relationship chain is walked only when a degree check says
// the edges are there (a leaf has no dependents, most versions no summary and no flag); each dependent is projected
// once, as ids and ints (its valid bounds in epoch microseconds) and its sensitivity label (a stale cause quotes a
// premise's content only where every reader of the dependent may see it), no map and no text built per row.
CALL (VERSION) {
  UNWIND VERSION AS v
  WITH v WHERE COUNT { (v)<-[:DEPENDS_ON]-() } > 0
  MATCH (v)<-[e:DEPENDS_ON]-(dep)
  WHERE e.known_to IS NULL AND dep.known_to IS NULL AND dep.tenant = $tenant
  RETURN collect(DISTINCT dep) AS first
}
CALL (first, done) {
  UNWIND first AS d
  WITH DISTINCT d.fact_id AS id
  WHERE NOT id IN done
  MATCH (v:Fact {fact_id: id})
  WHERE v.tenant = $tenant
  RETURN collect(v) AS middle, collect(DISTINCT id) AS expanded
}
CALL (middle) {
  UNWIND middle AS v
  WITH v WHERE COUNT { (v)<-[:DEPENDS_ON]-() } > 0
  MATCH (v)<-[e:DEPENDS_ON]-(dep)
  WHERE e.known_to IS NULL AND dep.known_to IS NULL AND dep.tenant = $tenant
  RETURN collect(DISTINCT dep) AS second
}
CALL (first, second, met) {
  UNWIND first + second AS dep
  WITH DISTINCT dep
  WHERE NOT dep.version_id IN met
  RETURN collect([
    dep.fact_id, dep.version_id, @state_at(dep, null), dep.valid_from.epochSeconds * 1000000 + dep.valid_from.microsecond,
    dep.valid_to.epochSeconds * 1000000 + dep.valid_to.microsecond,
    [(dep)-[j:DEPENDS_ON WHERE j.known_to IS NULL]->(p) | [j.justification, p.fact_id]], dep.sensitivity
  ]) AS dependents
}
CALL (VERSION, middle) {
  UNWIND VERSION + middle AS v
  WITH v
  WHERE COUNT { (v)<-[:DERIVED_FROM]-() } > 0
    AND any(sm IN [(v)<-[:DERIVED_FROM]-(sm:Summary) | sm] WHERE sm.known_to IS NULL AND sm.tenant = $tenant)
  RETURN collect(DISTINCT v.fact_id) AS summarized
}
CALL (VERSION) {
  UNWIND CASE WHEN POINT THEN VERSION ELSE [] END AS f
  WITH f
  WHERE f.known_to IS NULL
  RETURN collect({fact_id: f.fact_id, version_id: f.version_id, state: @state_at(f, null), statement: f.statement,
                  valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
                  sensitivity: f.sensitivity}) AS given
}
