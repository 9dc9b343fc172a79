// The cascade's backward walk in one traversal, seeking the given facts by fact id (no label scan): every current
// version reachable backwards from any version of the given facts along believed DEPENDS_ON edges through current
// served versions (a quantified path, planned as a pruning breadth-first expand: each version once, cycles end),
// with only what the support rule needs: ids, state, valid interval (ISO text), justification -> premise fact ids;
// no statements (the report fetches those for what it flags). For a served one, `missed` says whether a current
// version depends on another of its fact's versions (one not current or not served, which the traversal does not
// enter), so the caller walks on from that fact; `summarized` whether a current summary derives from its fact
// (sought from the fact's index, so its cost does not grow with the tenant's summaries).
// Also which of the given facts current summaries derive from, and (with $with_given) their current versions.
// $tenant      tenant id
// $fact_ids    fact ids whose change starts the walk
// $served      the served state values
// $with_given  whether to return the given facts' current versions
// returns: dependents (one list per dependent, not a map: [fact_id, version_id, state, valid_from, valid_to (ISO
//          text or null), premises (list of [justification, premise fact id]), missed, summarized]),
//          summarized (those of the given fact ids that a current summary derives from),
//          given (list of {fact_id, version_id, state, statement, valid_from, valid_to}, empty unless $with_given)
CALL () {
  MATCH (s:Fact)
  WHERE s.fact_id IN $fact_ids
  MATCH (s)(()<-[r:DEPENDS_ON]-(n:Fact) WHERE r.known_to IS NULL AND n.known_to IS NULL AND @state_at(n, null) IN $served){0,}(m)
  WITH DISTINCT m
  MATCH (m)<-[e:DEPENDS_ON]-(dep:Fact)
  WHERE e.known_to IS NULL AND dep.known_to IS NULL AND dep.tenant = $tenant
  WITH DISTINCT dep
  WITH dep, @state_at(dep, null) AS state
  RETURN collect([
    dep.fact_id, dep.version_id, state, toString(dep.valid_from), toString(dep.valid_to),
    [(dep)-[j:DEPENDS_ON WHERE j.known_to IS NULL]->(p:Fact) | [j.justification, p.fact_id]],
    state IN $served AND EXISTS {
      MATCH (v:Fact {fact_id: dep.fact_id})<-[x:DEPENDS_ON]-(y:Fact)
      WHERE NOT (v.known_to IS NULL AND @state_at(v, null) IN $served) AND x.known_to IS NULL AND y.known_to IS NULL
        AND y.tenant = $tenant
    },
    EXISTS {
      MATCH (d:Fact {fact_id: dep.fact_id})<-[:DERIVED_FROM]-(sm:Summary)
      USING INDEX d:Fact(fact_id)
      WHERE sm.known_to IS NULL AND sm.tenant = $tenant
    }
  ]) AS dependents
}
CALL () {
  UNWIND $fact_ids AS id
  WITH DISTINCT id
  WHERE EXISTS {
    MATCH (d:Fact {fact_id: id})<-[:DERIVED_FROM]-(sm:Summary)
    USING INDEX d:Fact(fact_id)
    WHERE sm.known_to IS NULL AND sm.tenant = $tenant
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
