// One page of the served relations of a named entity at a (valid, known) point, both directions, cut in the query by
// key: the entity is found as read_relations.cypher finds it (normalised name or alias, following the merges
// believed at known_at, with every id merged into it then), in the order of the whole answer (read_relations.cypher
// as services/facts/who.py shapes it): the dated relations, outgoing then incoming (each with its predicate's inverse
// name, null when none is defined), then the undated ones (valid_from unknown, not ended by the point) likewise; each
// part by valid_from, then known_from, then version id: a unique order (its rank: 0 dated out, 1 dated in, 2 undated
// out, 3 undated in). Only versions the caller may see are returned, and an entity it may see no fact about answers
// like a name no entity has.
// $tenant        tenant id
// $norm          normalised entity name
// $valid_at      valid-time point (ISO 8601 text with offset)
// $known_at      known-time point (ISO 8601 text with offset; far future = believed now)
// $states        states to return
// $far_future    where an undated relation sorts (ISO 8601 text with offset)
// $after_rank    the rank (0 to 3) of the relation the page starts after (null: from the first)
// $after_valid   valid_from of that relation (null: it is undated, or the page starts at the first)
// $after_known   known_from of that relation (null: from the first)
// $after_id      version id of that relation (null: from the first)
// $limit         the most relations to return (a page and one more, to know whether another follows)
// $levels        sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) entity_id (no row when no entity has this name), relation ({way, rank, inverse,
//          fact}; one row each, in the page's order; null on the one row of an empty page); instants as ISO 8601
//          text; each fact map's `premised` says whether the version rests on premises, and `sourced` whether any
//          source is linked to it
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $norm}) USING INDEX direct:Entity(tenant, norm)
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $norm})-[:ALIAS_OF]->(aliased:Entity)
WITH valid_at, known_at, coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
@merged_into(e, known_at)
WITH valid_at, known_at, coalesce(keep, e) AS c
@merged_from(c, known_at)
WITH c, [c.entity_id] + collect(DISTINCT other.entity_id) AS ids, valid_at, known_at
WHERE @visible_entity(ids, $levels)
CALL (ids, valid_at, known_at) {
  CALL (ids, valid_at, known_at) {
    MATCH (f:Fact)
    USING INDEX f:Fact(subject_id)
    WHERE f.subject_id IN ids AND f.tenant = $tenant
      AND @believed_at(f, known_at)
      AND @state_at(f, known_at) IN $states
      AND @visible(f, $levels)
      AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
    RETURN f, 0 AS way, null AS inverse
    UNION ALL
    MATCH (f:Fact)
    USING INDEX f:Fact(object_id)
    WHERE f.object_id IN ids AND f.tenant = $tenant
      AND @believed_at(f, known_at)
      AND @state_at(f, known_at) IN $states
      AND @visible(f, $levels)
      AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
    OPTIONAL MATCH (p:Predicate {tenant: $tenant, name: f.predicate})
    RETURN f, 1 AS way, p.inverse AS inverse
  }
  WITH f, way, inverse, CASE WHEN f.valid_from IS NULL THEN 2 ELSE 0 END + way AS rank,
       coalesce(f.valid_from, datetime($far_future)) AS since,
       coalesce(datetime($after_valid), datetime($far_future)) AS after_since
  WHERE $after_id IS NULL OR rank > $after_rank
     OR (rank = $after_rank AND (since > after_since
         OR (since = after_since AND (f.known_from > datetime($after_known)
             OR (f.known_from = datetime($after_known) AND f.version_id > $after_id)))))
  WITH f, way, inverse, rank, known_at ORDER BY rank, since, f.known_from, f.version_id LIMIT $limit
  RETURN collect({way: way, rank: rank, inverse: inverse,
                  fact: f {@fact_fields(f, known_at), @fact_instants(f), disputed: @disputed_at(f, known_at),
                           premised: @premised(f), sourced: EXISTS { (f)-[:SOURCED_FROM]->() }}}) AS relations
}
// one row per relation (one with relation null when the page is empty: the entity is there, its page has none)
UNWIND CASE size(relations) WHEN 0 THEN [null] ELSE relations END AS relation
RETURN c.entity_id AS entity_id, relation
