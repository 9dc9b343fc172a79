// Entity-to-entity relations served at a (valid, known) point, from a frontier of entities, both directions (only
// versions the caller may see: a path never crosses a relation above its clearance).
// $tenant    tenant id
// $ids       frontier entity ids
// $valid_at  valid-time point (ISO 8601 text with offset)
// $known_at  known-time point (ISO 8601 text with offset; far future = believed now)
// $states    served states
// $include_undated  also relations whose valid_from is unknown (not ended by the point)
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: from_id, to_id, direction, fact (instants as ISO 8601 text)
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
UNWIND $ids AS id
CALL (id) {
  MATCH (f:Fact) USING INDEX f:Fact(subject_id)
  WHERE f.subject_id = id AND f.object_id IS NOT NULL
  RETURN f, f.object_id AS to_id, 'out' AS direction
  UNION
  MATCH (f:Fact) USING INDEX f:Fact(object_id)
  WHERE f.object_id = id
  RETURN f, f.subject_id AS to_id, 'in' AS direction
}
WITH id, f, to_id, direction, valid_at, known_at
WHERE f.tenant = $tenant AND @state_at(f, known_at) IN $states
  AND @visible(f, $levels)
  AND @believed_at(f, known_at)
  AND ((f.valid_from IS NOT NULL AND f.valid_from <= valid_at) OR ($include_undated AND f.valid_from IS NULL))
  AND (f.valid_to IS NULL OR f.valid_to > valid_at)
RETURN id AS from_id, to_id, direction, f {@fact_fields(f, known_at), @fact_instants(f), disputed: false} AS fact
