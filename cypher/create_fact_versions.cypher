// Create fact versions with their ABOUT edges (subject, and object when it is an entity).
// $rows  list of {props (every stored property of the version), subject_id, object_id}
// returns: created
UNWIND $rows AS row
CREATE (f:Fact)
SET f = row.props
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
