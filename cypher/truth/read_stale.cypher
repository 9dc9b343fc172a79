// Everything awaiting re-verification or a rebuild that the caller may see: current fact versions in state stale
// and current summary versions in state stale (a summary is as sensitive as its most sensitive input:
// cypher/fragments/visible_summary.cypher), oldest first by a unique key: known from, kind ('fact' before
// 'summary'), id, version id. A page is cut here by that key (keyset), never from the whole list.
// $tenant  tenant id
// $state   the stale state name
// $levels  sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $after   [known_from (ISO 8601 text), kind, id, version id] of the item the page starts after (null: from the first)
// $limit   the most items to return (a page and one more, to know whether another follows; ALL for all)
// returns: kind ('fact' or 'summary'), fact (a fact version, or null), summary (a summary version, or null),
//          trace (the summary's DERIVED_FROM edges; empty for a fact)
CALL () {
  MATCH (f:Fact)
  WHERE f.tenant = $tenant AND @state_at(f, null) = $state AND f.known_to IS NULL AND @visible(f, $levels)
  RETURN f AS node, 'fact' AS kind, f.fact_id AS id
  UNION ALL
  MATCH (s:Summary)
  WHERE s.tenant = $tenant AND @state_at(s, null) = $state AND s.known_to IS NULL AND @visible_summary(s, $levels)
  RETURN s AS node, 'summary' AS kind, s.summary_id AS id
}
WITH node, kind, id, node.known_from AS since, node.version_id AS version_id
WHERE $after IS NULL OR since > datetime($after[0])
   OR (since = datetime($after[0]) AND (kind > $after[1] OR (kind = $after[1]
       AND (id > $after[2] OR (id = $after[2] AND version_id > $after[3])))))
WITH node, kind, id, since, version_id
ORDER BY since, kind, id, version_id
LIMIT $limit
RETURN kind,
       CASE kind WHEN 'fact' THEN node {@fact_fields(node, null), disputed: false} END AS fact,
       CASE kind WHEN 'summary' THEN node {.*, flag: @flag_at(node, null)} END AS summary,
       [(node)-[d:DERIVED_FROM]->() | d {.kind, .ref_id, .version_id, .hash}] AS trace
ORDER BY since, kind, id, version_id
