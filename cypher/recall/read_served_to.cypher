// The read receipts of one task, oldest first, each with the versions it served in rank order: only versions the
// caller may see, and no receipt that served versions of which it may see none; its question only for a caller who
// may see what the asker could (cypher/fragments/visible_question.cypher), else withheld.
// $tenant   tenant id
// $task     the task label
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $after    [at (ISO 8601 text), receipt id] of the receipt the page starts after (null: from the first)
// $limit    the most receipts to return (a page and one more, to know whether another follows; ALL for all)
// returns: receipt (map of the receipt's properties, instants as ISO 8601 text), facts (served versions, instants
//          as ISO 8601 text, in rank order); no row when the task has no receipt in this tenant
MATCH (r:ReadReceipt {tenant: $tenant, task: $task})
WHERE $after IS NULL OR r.at > datetime($after[0]) OR (r.at = datetime($after[0]) AND r.receipt_id > $after[1])
CALL (r) {
  OPTIONAL MATCH (r)-[s:SERVED]->(f:Fact)
  WITH s, f ORDER BY s.rank
  RETURN count(f) AS served, collect(CASE WHEN @visible(f, $levels)
                                     THEN f {.*, embedding: null, @fact_instants(f), disputed: false} END) AS facts
}
WITH r, facts WHERE served = 0 OR size(facts) > 0
RETURN r {.receipt_id, .task, .operation, valid_at: toString(r.valid_at), known_at: toString(r.known_at),
          at: toString(r.at),
          // a question is shown only to a caller who may see what its asker could (it may name what only they may)
          query: CASE WHEN @visible_question(r, $levels) THEN r.query END,
          query_withheld: r.query IS NOT NULL AND NOT @visible_question(r, $levels)} AS receipt, facts
ORDER BY r.at, r.receipt_id
LIMIT $limit
