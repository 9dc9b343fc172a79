// Carry a version's evidence and premise edges (believed now) over to the version that replaces it.
// The embedding comes along when the statement is unchanged (otherwise the new version keeps its own).
// SOURCED_FROM, ACCEPTED_IN and DEPENDS_ON describe the claim, not one version, so a correction or a
// state change keeps them; the copies start being known at this write.
// An open CONFLICTS_WITH dispute also follows the claim, in both directions (out of a replaced challenger, into a
// replaced established version): the old edge closes now as 'carried' (as-of reads still see it) and the copy,
// open from now, keeps the conflict id and when it opened. An edge carried earlier in this same write is carried
// again (a version split into pieces); an endpoint replaced in this same write carries the edge on its own row.
// $known  known time of the write
// $rows   list of {old_id, new_id}
// returns: carried
UNWIND $rows AS row
MATCH (old:Fact {version_id: row.old_id})
MATCH (new:Fact {version_id: row.new_id})
SET new.embedding = coalesce(CASE WHEN new.statement = old.statement THEN old.embedding END, new.embedding)
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
  UNION ALL
  MATCH (old)-[r:CONFLICTS_WITH]->(e)
  WHERE (r.known_to IS NULL OR (r.known_to = $known AND r.status = 'carried'))
    AND (e.known_to IS NULL OR e.known_to < $known)
  CREATE (new)-[c:CONFLICTS_WITH]->(e)
  SET c = properties(r), c.opened_at = coalesce(r.opened_at, r.known_from), c.known_from = $known,
      c.known_to = null, c.status = 'open'
  SET r.known_to = $known, r.status = 'carried'
  RETURN count(c) AS n
  UNION ALL
  MATCH (ch)-[r:CONFLICTS_WITH]->(old)
  WHERE (r.known_to IS NULL OR (r.known_to = $known AND r.status = 'carried'))
    AND (ch.known_to IS NULL OR ch.known_to < $known)
  CREATE (ch)-[c:CONFLICTS_WITH]->(new)
  SET c = properties(r), c.opened_at = coalesce(r.opened_at, r.known_from), c.known_from = $known,
      c.known_to = null, c.status = 'open'
  SET r.known_to = $known, r.status = 'carried'
  RETURN count(c) AS n
}
RETURN sum(n) AS carried
