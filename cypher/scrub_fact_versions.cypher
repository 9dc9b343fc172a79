// Remove the content of every version of the given facts (forgetting changes the past on purpose): statement,
// quote, embedding, names and literal object, and the quotes on their SOURCED_FROM edges; mark each version with
// the tombstone (when, by whom, why). The full-text and vector indexes drop the removed properties themselves.
// $tenant    tenant id
// $fact_ids  fact ids
// $known     known time of the forgetting
// $by        who forgot
// $reason    why
// returns: scrubbed (versions)
MATCH (f:Fact)
WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
REMOVE f.statement, f.quote, f.embedding, f.subject_name, f.object_name, f.stale_cause, f.lapse_reason
SET f.object_value = '', f.forgotten_at = $known, f.forgotten_by = $by, f.forgotten_reason = $reason,
    f.end_reason = CASE WHEN f.end_reason IS NULL THEN null ELSE 'forgotten' END
WITH f
CALL (f) {
  MATCH (f)-[r:SOURCED_FROM]->()
  REMOVE r.quote, r.span
}
RETURN count(f) AS scrubbed
