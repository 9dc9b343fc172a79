// Every entity merged into entity VERSION through a chain of MERGED_INTO hops believed at known point POINT, one
// row each as `other` (null when none was). POINT is a variable; walked only when VERSION's degree says an entity
// was merged into it (merged_into.cypher says why).
OPTIONAL CALL (VERSION, POINT) {
  WITH VERSION, POINT WHERE COUNT { (VERSION)<-[:MERGED_INTO]-() } > 0
  MATCH (other:Entity)-[merge__:MERGED_INTO*1..]->(VERSION)
  WHERE all(m IN merge__ WHERE m.known_from <= POINT AND (m.known_to IS NULL OR m.known_to > POINT))
  RETURN other
}
