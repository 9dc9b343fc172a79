// Two levels of the cascade's backward walk over fact ids, seeking by the fact id index (no label scan, no path
// enumeration: each version is expanded once per call): every current version resting, through a believed
// DEPENDS_ON edge, on any version of the given facts (level one), and every current version resting on any version
// of a level-one fact (level two), each once, with only what the support rule needs: ids, state, valid interval
// (epoch microseconds), justification -> premise fact ids; no statements (the flag write returns those for what it
// flags). A version in $met is not projected again, a fact in $done not expanded again.
// The caller walks on over ids (`tms_rules.reach`: only facts met with a served version are walked through), with
// the facts this call already expanded as its visited set.
// (The levels are cypher/fragments/walk_levels.cypher, shared with close_current_versions.cypher.)
// Also which of the expanded facts current summaries derive from, and (with $with_given) the given facts' current
// versions.
// clearance: not applied: truth maintenance judges every version, whatever the writer's clearance; nothing it reads
//   is served (a write's report is cut to the writer's clearance: services/core/clearance.py)
// $tenant      tenant id
// $fact_ids    fact ids to walk back from (the changed facts, or the next frontier)
// $with_given  whether to return the given facts' current versions
// $met         version ids earlier calls returned that a later level could meet again (not projected again)
// $done        fact ids earlier calls expanded that a later level could meet again (not expanded again)
// returns: (plain values only: no node, relationship or path)
//          dependents (one list per dependent, not a map: [fact_id, version_id, state, valid_from, valid_to (epoch
//          microseconds or null), premises (list of [justification, premise fact id]), sensitivity]),
//          expanded (the level-one fact ids, whose versions' dependents are level two),
//          summarized (those of the given and level-one fact ids that a current summary derives from),
//          given (list of {fact_id, version_id, state, statement, valid_from, valid_to, sensitivity}, empty unless
//          $with_given)
CALL () {
  UNWIND $fact_ids AS id
  MATCH (v:Fact {fact_id: id})
  WHERE v.tenant = $tenant
  RETURN collect(v) AS starts
}
WITH starts, $met AS met, $done AS done
@walk_levels(starts, $with_given)
RETURN dependents, expanded, summarized, given
