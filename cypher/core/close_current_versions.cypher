// Stop believing every current version of a fact in one statement (a retraction reads and closes them together):
// each version as it was believed just before (the projection read_fact_versions returns), then closed: known_to
// (and its search key, schema/search.py search_keys),
// how and why it ended, and its ABOUT edges; then the cascade's first walk step from the fact, as after the close
// (cypher/fragments/walk_levels.cypher, as read_dependents_level runs it with $with_given true), so a retraction
// needs no separate walk query when nothing else is written after it.
// $tenant    tenant id
// $fact_id   fact id
// $known     known time of the write
// $ended_by  how they ended
// $reason    why (or null)
// $known_at  disputed is reported as believed at this known time (far future = now)
// $levels    sensitivity labels the writer may see: a version above them is neither closed nor returned (the caller
//            answers NotFound, services/core/versions.py), nor a dispute by a challenger above them reported
// returns: (plain values only: no node, relationship or path)
//          one row: facts (each closed version as believed before this write, oldest belief first), and the walk's
//          first step from every version of the fact: dependents, expanded, summarized, given (as
//          read_dependents_level returns them)
CALL () {
  MATCH (f:Fact {fact_id: $fact_id})
  WHERE f.tenant = $tenant AND f.known_to IS NULL AND @visible(f, $levels)
  WITH f, f {@fact_fields(f, $known_at), disputed: @disputed_at(f, $known_at)} AS fact
  SET f.known_to = $known, f.ended_by = $ended_by, f.end_reason = $reason
  SET f.known_to_key = f.known_to.epochMillis  // the one search key a close changes (schema/search.py search_keys)
  WITH f, fact
  CALL (f) {
    MATCH (f)-[r:ABOUT]->()
    SET r.known_to = $known
  }
  WITH fact
  ORDER BY fact.known_from, fact.valid_from
  RETURN collect(fact) AS facts
}
CALL () {
  MATCH (v:Fact {fact_id: $fact_id})
  WHERE v.tenant = $tenant
  RETURN collect(v) AS starts
}
WITH facts, starts, [] AS met, [] AS done
@walk_levels(starts, true)
RETURN facts, dependents, expanded, summarized, given
