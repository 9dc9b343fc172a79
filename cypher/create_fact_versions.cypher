// Create fact versions with their ABOUT edges (subject, and object when it is an entity).
// $rows  list of {props (every stored property but the instants), instants (valid_from, valid_to, known_from,
//        known_to, verified_at as ISO 8601 text with offset, absent when null), subject_id, object_id}
// returns: created
UNWIND $rows AS row
CREATE (f:Fact)
SET f = row.props
SET f.valid_from = datetime(row.instants.valid_from), f.valid_to = datetime(row.instants.valid_to),
    f.known_from = datetime(row.instants.known_from), f.known_to = datetime(row.instants.known_to),
    f.verified_at = datetime(row.instants.verified_at)
WITH f, row
MATCH (s:Entity {entity_id: row.subject_id})
CREATE (f)-[:ABOUT {role: 'subject', known_from: f.known_from}]->(s)
WITH f, row
CALL (f, row) {
  WITH f, row WHERE row.object_id IS NOT NULL
  MATCH (o:Entity {entity_id: row.object_id})
  CREATE (f)-[:ABOUT {role: 'object', known_from: f.known_from}]->(o)
}
RETURN count(f) AS created
