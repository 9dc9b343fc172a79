// Create fact versions with their ABOUT edges (subject, and object when it is an entity), each with the filter keys
// of the `fact_search` vector index among its props (schema/search.py search_keys: computed in Python, as a SET
// here they cost the bulk write 0.3-0.4x of its floor); first the entities the rows name that no entity has yet
// (read_names_and_held.cypher found none, under the tenant's clock lock: a duplicate breaks the (tenant, norm)
// uniqueness rule and refuses the write).
// $tenant  tenant id of every row
// $entities  list of {norm, name, entity_id, kind, created_at (ISO 8601 text with offset)} to create first
// $rows  list of {props (every stored property but the instants), instants (valid_from, valid_to, known_from,
//        known_to, verified_at as ISO 8601 text with offset, absent when null), subject_id, object_id}
// returns: created
CALL () {
  UNWIND $entities AS ent
  CREATE (:Entity {tenant: $tenant, norm: ent.norm, entity_id: ent.entity_id, name: ent.name, kind: ent.kind,
                   aliases: [], aliases_text: '', created_at: datetime(ent.created_at)})
}
UNWIND $rows AS row
WITH row, datetime(row.instants.known_from) AS known
CREATE (f:Fact)
SET f = row.props
SET f.valid_from = datetime(row.instants.valid_from), f.valid_to = datetime(row.instants.valid_to),
    f.known_from = known, f.known_to = datetime(row.instants.known_to),
    f.verified_at = datetime(row.instants.verified_at)
WITH f, row, known
MATCH (s:Entity {entity_id: row.subject_id})
CREATE (f)-[:ABOUT {role: 'subject', known_from: known}]->(s)
WITH f, row, known
CALL (f, row, known) {
  WITH f, row, known WHERE row.object_id IS NOT NULL
  MATCH (o:Entity {entity_id: row.object_id})
  CREATE (f)-[:ABOUT {role: 'object', known_from: known}]->(o)
}
RETURN count(f) AS created
