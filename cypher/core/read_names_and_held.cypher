// The read a bulk write starts with, in one statement and without a lock (the write already holds its tenant's
// clock, so no other write can create these names meanwhile): each name resolved as resolve_entities.cypher
// resolves it (normalised name or alias, the merges believed now, every id merged into it), and the slim input of
// the conflict rule for each ask, as read_held_by_subjects.cypher reads it, for the asks whose subject exists.
// Episodes are never held: an episodic row skips the rule (append-only) and no other row meets one (DESIGN §9).
// clearance: not applied: the conflict rule sees every believed version (a write may not change established
//   knowledge it cannot see); a restatement of a hidden version is written as a claim of its own
// $tenant  tenant id
// $names   list of normalised names (asks refer to them by position)
// $asks    list of {subject_at, predicate, object_at (position of an entity object's name, or null), object_type,
//          object_value} (object_type, object_value null to ask for every object: a single-valued predicate)
// $states  the served states
// returns: found (per name, in order: {at, entity_id, name, ids}, entity_id null for a name no entity has),
//          held (list of [ask position, fact_id, version_id, object_type, object_value, object_id, scope_key,
//          state, valid_from, valid_from_precision, valid_to, sensitivity]; instants as ISO 8601 text)
UNWIND range(0, size($names) - 1) AS at
OPTIONAL MATCH (:Alias {tenant: $tenant, norm: $names[at]})-[:ALIAS_OF]->(aliased:Entity)
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: $names[at]}) USING INDEX direct:Entity(tenant, norm)
WITH at, coalesce(aliased, direct) AS e
// merges chain (Kay -> K. -> Katherine): follow every believed MERGED_INTO hop to the end of the chain; each walk
// only where the degree says the entity has a merge edge (most have none: 12 % of the name lookup's server time)
OPTIONAL CALL (e) {
  WITH e WHERE COUNT { (e)-[:MERGED_INTO]->() } > 0
  MATCH (e)-[ms:MERGED_INTO*1..]->(keep:Entity)
  WHERE all(m IN ms WHERE m.known_to IS NULL)
    AND NOT EXISTS { MATCH (keep)-[n:MERGED_INTO]->() WHERE n.known_to IS NULL }
  RETURN keep
}
WITH at, coalesce(keep, e) AS canonical
CALL (canonical) {
  OPTIONAL CALL (canonical) {
    WITH canonical WHERE COUNT { (canonical)<-[:MERGED_INTO]-() } > 0
    MATCH (merged:Entity)-[ms2:MERGED_INTO*1..]->(canonical) WHERE all(m IN ms2 WHERE m.known_to IS NULL)
    RETURN merged
  }
  RETURN collect(DISTINCT merged.entity_id) AS merged_ids
}
WITH at, canonical, merged_ids ORDER BY at
WITH collect({at: at, entity_id: canonical.entity_id, name: canonical.name,
              ids: CASE WHEN canonical IS NULL THEN [] ELSE [canonical.entity_id] + merged_ids END}) AS found
CALL (found) {
  UNWIND range(0, size($asks) - 1) AS at
  WITH at, $asks[at] AS ask
  WITH at, ask, found[ask.subject_at].ids AS subject_ids,
       CASE WHEN ask.object_at IS NULL THEN null ELSE found[ask.object_at].entity_id END AS object_id
  // a subject or entity object no entity has yet: nothing can be held against it
  WHERE size(subject_ids) > 0 AND (ask.object_at IS NULL OR object_id IS NOT NULL)
  // the subject index is the selective one (the planner otherwise scans every fact of the predicate)
  MATCH (f:Fact)
  USING INDEX f:Fact(subject_id)
  WHERE f.subject_id IN subject_ids AND f.predicate = ask.predicate AND f.tenant = $tenant
    AND f.known_to IS NULL AND coalesce(f.kind, 'semantic') <> 'episodic'
    AND (ask.object_type IS NULL
         OR (ask.object_at IS NOT NULL AND f.object_id = object_id)
         OR (ask.object_at IS NULL AND f.object_type = ask.object_type AND f.object_value = ask.object_value))
  // the state once per version: the filter and the answer share it (its flag read planned and run once, not twice)
  WITH at, f, @state_at(f, null) AS state
  WHERE state IN $states
  RETURN collect([at, f.fact_id, f.version_id, f.object_type, f.object_value, f.object_id, f.scope_key,
                  state, toString(f.valid_from), f.valid_from_precision, toString(f.valid_to),
                  f.sensitivity]) AS held
}
RETURN found, held
