// The read receipts that served a fact (any of its versions) or one version, oldest first, with only those versions
// (only those the caller may see); its question only for a caller who may see what the asker could
// (cypher/fragments/visible_question.cypher), else withheld.
// $tenant   tenant id
// $ref      a fact id or a version id
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $after    [at (ISO 8601 text), receipt id] of the receipt the page starts after (null: from the first)
// $limit    the most receipts to return (a page and one more, to know whether another follows; ALL for all)
// returns: receipt (map, instants as ISO 8601 text), facts (the served versions of the ref, instants as ISO text)
CALL () {
  MATCH (f:Fact {fact_id: $ref}) WHERE f.tenant = $tenant RETURN f
  UNION
  MATCH (f:Fact {version_id: $ref}) WHERE f.tenant = $tenant RETURN f
}
WITH f WHERE @visible(f, $levels)
MATCH (r:ReadReceipt)-[s:SERVED]->(f)
WHERE $after IS NULL OR r.at > datetime($after[0]) OR (r.at = datetime($after[0]) AND r.receipt_id > $after[1])
WITH r, collect(f {.*, embedding: null, @fact_instants(f), disputed: false}) AS facts
RETURN r {.receipt_id, .task, .operation, valid_at: toString(r.valid_at), known_at: toString(r.known_at),
          at: toString(r.at),
          // a question is shown only to a caller who may see what its asker could (it may name what only they may)
          query: CASE WHEN @visible_question(r, $levels) THEN r.query END,
          query_withheld: r.query IS NOT NULL AND NOT @visible_question(r, $levels)} AS receipt, facts
ORDER BY r.at, r.receipt_id
LIMIT $limit
