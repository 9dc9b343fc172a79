// Versions about some entities (as subject or object) that stopped being believed by the known point because they
// were corrected or retracted (we were wrong): the historical part of a context package shows them with the reason
// (those the caller may see).
// $tenant      tenant id
// $entity_ids  entity ids (the entities and every id merged into them)
// $known_at    known-time point (ISO 8601 text with offset; far future = believed now)
// $ended_by    end kinds to return (correction, retraction)
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: fact (instants as ISO 8601 text), newest closing first
WITH datetime($known_at) AS known_at
CALL () {
  MATCH (f:Fact) USING INDEX f:Fact(subject_id) WHERE f.subject_id IN $entity_ids AND f.tenant = $tenant RETURN f
  UNION
  MATCH (f:Fact) USING INDEX f:Fact(object_id) WHERE f.object_id IN $entity_ids AND f.tenant = $tenant RETURN f
}
WITH f, known_at
WHERE f.known_to IS NOT NULL AND f.known_to <= known_at AND f.ended_by IN $ended_by
  AND NOT @state_at(f, null) IN ['rejected', 'forgotten', 'deleted']
  AND @visible(f, $levels)
RETURN f {.*, embedding: null, @fact_instants(f), disputed: false} AS fact
ORDER BY f.known_to DESC
