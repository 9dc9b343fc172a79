// Two levels of the cascade's backward walk over fact ids, seeking by the fact id index (no label scan, no path
// enumeration: each version is expanded once per call): every current version resting, through a believed
// DEPENDS_ON edge, on any version of the given facts (level one), and every current version resting on any version
// of a level-one fact (level two), each once, with only what the support rule needs: ids, state, valid interval
// (ISO text), justification -> premise fact ids; no statements (the flag write returns those for what it flags).
// The caller walks on over ids (`tms_rules.reach`: only facts met with a served version are walked through), with
// the facts this call already expanded as its visited set.
// Also which of the expanded facts current summaries derive from, and (with $with_given) the given facts' current
// versions.
// $tenant      tenant id
// $fact_ids    fact ids to walk back from (the changed facts, or the next frontier)
// $with_given  whether to return the given facts' current versions
// returns: dependents (one list per dependent, not a map: [fact_id, version_id, state, valid_from, valid_to (ISO
//          text or null), premises (list of [justification, premise fact id])]),
//          expanded (the level-one fact ids, whose versions' dependents are level two),
//          summarized (those of the given and level-one fact ids that a current summary derives from),
//          given (list of {fact_id, version_id, state, statement, valid_from, valid_to}, empty unless $with_given)
CALL () {
  UNWIND $fact_ids AS id
  MATCH (v:Fact {fact_id: id})
  WHERE v.tenant = $tenant
  RETURN collect(v) AS starts
}
CALL (starts) {
  UNWIND starts AS v
  MATCH (v)<-[e:DEPENDS_ON]-(dep:Fact)
  WHERE e.known_to IS NULL AND dep.known_to IS NULL AND dep.tenant = $tenant
  RETURN collect(DISTINCT dep) AS first
}
CALL (first) {
  UNWIND first AS d
  WITH DISTINCT d.fact_id AS id
  MATCH (v:Fact {fact_id: id})
  WHERE v.tenant = $tenant
  RETURN collect(v) AS middle, collect(DISTINCT id) AS expanded
}
CALL (middle) {
  UNWIND middle AS v
  MATCH (v)<-[e:DEPENDS_ON]-(dep:Fact)
  WHERE e.known_to IS NULL AND dep.known_to IS NULL AND dep.tenant = $tenant
  RETURN collect(DISTINCT dep) AS second
}
CALL (first, second) {
  UNWIND first + second AS dep
  WITH DISTINCT dep
  RETURN collect([
    dep.fact_id, dep.version_id, @state_at(dep, null), toString(dep.valid_from), toString(dep.valid_to),
    [(dep)-[j:DEPENDS_ON WHERE j.known_to IS NULL]->(p:Fact) | [j.justification, p.fact_id]]
  ]) AS dependents
}
CALL (starts, middle) {
  UNWIND starts + middle AS v
  WITH v
  // a pattern comprehension expands from v (an EXISTS was planned as a seek of the tenant's summaries per version)
  WHERE any(sm IN [(v)<-[:DERIVED_FROM]-(sm:Summary) | sm] WHERE sm.known_to IS NULL AND sm.tenant = $tenant)
  RETURN collect(DISTINCT v.fact_id) AS summarized
}
CALL (starts) {
  UNWIND CASE WHEN $with_given THEN starts ELSE [] END AS f
  WITH f
  WHERE f.known_to IS NULL
  RETURN collect({fact_id: f.fact_id, version_id: f.version_id, state: @state_at(f, null), statement: f.statement,
                  valid_from: toString(f.valid_from), valid_to: toString(f.valid_to)}) AS given
}
RETURN dependents, expanded, summarized, given
