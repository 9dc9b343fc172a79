// Every served relation of a named entity at a (valid, known) point, both directions, in one round trip:
// the entity is found as read_entity.cypher finds it (normalised name or alias, following the merges believed
// at known_at, with every id merged into it then); incoming facts carry their predicate's inverse name (null
// when none is defined). Undated facts (valid_from unknown) not ended by the point are returned too. Only versions
// the caller may see are returned, and an entity it may see no fact about answers like a name no entity has.
// $tenant    tenant id
// $norm      normalised entity name
// $valid_at  valid-time point (ISO 8601 text with offset)
// $known_at  known-time point (ISO 8601 text with offset; far future = believed now)
// $states    states to return
// $levels    sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) entity_id (no row when no entity has this name), outgoing (facts), incoming (list of {fact, inverse});
//          each list ordered by valid_from, known_from; instants as ISO 8601 text; each fact map's `premised` says
//          whether the version rests on premises (only those need a support check), and `sourced` whether any source
//          is linked to it (only those can be weak: services/facts/evidence.py)
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $norm}) USING INDEX direct:Entity(tenant, norm)
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $norm})-[:ALIAS_OF]->(aliased:Entity)
WITH valid_at, known_at, coalesce(direct, aliased) AS e
WHERE e IS NOT NULL
// merges chain (Kay -> K. -> Katherine): follow every believed MERGED_INTO hop to the end of the chain
@merged_into(e, known_at)
WITH valid_at, known_at, coalesce(keep, e) AS c
@merged_from(c, known_at)
WITH c, [c.entity_id] + collect(DISTINCT other.entity_id) AS ids, valid_at, known_at
WHERE @visible_entity(ids, $levels)
CALL (ids, valid_at, known_at) {
  MATCH (f:Fact)
  USING INDEX f:Fact(subject_id)
  WHERE f.subject_id IN ids AND f.tenant = $tenant
    AND @believed_at(f, known_at)
    AND @state_at(f, known_at) IN $states
    AND @visible(f, $levels)
    // undated (valid_from unknown) too, unless ended by the point: the caller keeps them apart, marked
    AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
  WITH f ORDER BY f.valid_from, f.known_from
  RETURN collect(f {@fact_fields(f, known_at), @fact_instants(f), disputed: @disputed_at(f, known_at),
          premised: @premised(f), sourced: EXISTS { (f)-[:SOURCED_FROM]->() }}) AS outgoing
}
CALL (ids, valid_at, known_at) {
  MATCH (f:Fact)
  USING INDEX f:Fact(object_id)
  WHERE f.object_id IN ids AND f.tenant = $tenant
    AND @believed_at(f, known_at)
    AND @state_at(f, known_at) IN $states
    AND @visible(f, $levels)
    // undated (valid_from unknown) too, unless ended by the point: the caller keeps them apart, marked
    AND (f.valid_from IS NULL OR f.valid_from <= valid_at) AND (f.valid_to IS NULL OR f.valid_to > valid_at)
  OPTIONAL MATCH (p:Predicate {tenant: $tenant, name: f.predicate})
  WITH f, p ORDER BY f.valid_from, f.known_from
  RETURN collect({inverse: p.inverse, fact: f {@fact_fields(f, known_at), @fact_instants(f),
                                                    disputed: @disputed_at(f, known_at),
                                                    premised: @premised(f),
                                                    sourced: EXISTS { (f)-[:SOURCED_FROM]->() }}}) AS incoming
}
RETURN c.entity_id AS entity_id, outgoing, incoming
