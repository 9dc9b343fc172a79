// Carry a version's evidence and premise edges (believed now) over to the version that replaces it.
// The embedding comes along when the statement is unchanged.
// SOURCED_FROM, ACCEPTED_IN and DEPENDS_ON describe the claim, not one version, so a correction or a
// state change keeps them; the copies start being known at this write.
// $known  known time of the write
// $rows   list of {old_id, new_id}
// returns: carried
UNWIND $rows AS row
MATCH (old:Fact {version_id: row.old_id})
MATCH (new:Fact {version_id: row.new_id})
SET new.embedding = CASE WHEN new.statement = old.statement THEN old.embedding END
WITH old, new
CALL (old, new) {
  MATCH (old)-[r:SOURCED_FROM]->(s)
  WHERE r.known_to IS NULL
  CREATE (new)-[c:SOURCED_FROM]->(s)
  SET c = properties(r), c.known_from = $known
  RETURN count(c) AS n
  UNION ALL
  MATCH (old)-[r:ACCEPTED_IN]->(s)
  WHERE r.known_to IS NULL
  CREATE (new)-[c:ACCEPTED_IN]->(s)
  SET c = properties(r), c.known_from = $known
  RETURN count(c) AS n
  UNION ALL
  MATCH (old)-[r:DEPENDS_ON]->(p)
  WHERE r.known_to IS NULL
  CREATE (new)-[c:DEPENDS_ON]->(p)
  SET c = properties(r), c.known_from = $known
  RETURN count(c) AS n
}
RETURN sum(n) AS carried
