// Carry a version's evidence and premise edges (believed now) over to the version that replaces it.
// The embedding comes along when the statement is unchanged (otherwise the new version keeps its own); in
// crypto-erasure mode two sealings of one statement differ, so the caller says so with `same_statement`.
// SOURCED_FROM, ACCEPTED_IN and DEPENDS_ON describe the claim, not one version, so a correction or a
// state change keeps them; the copies start being known at this write. A second writer of SOURCED_FROM, ACCEPTED_IN
// and CONFLICTS_WITH by purpose (the gate's link_* and create_conflicts draw new ones; this carries them to a new
// version); its DEPENDS_ON copies are cypher/fragments/carry_premises.cypher's.
// An open CONFLICTS_WITH dispute also follows the claim, in both directions (out of a replaced challenger, into a
// replaced established version): the old edge closes now as 'carried' (as-of reads still see it) and the copy,
// open from now, keeps the conflict id and when it opened. An edge carried earlier in this same write is carried
// again (a version split into pieces); an endpoint replaced in this same write carries the edge on its own row.
// $known  known time of the write
// $rows   list of {old_id, new_id, same_statement (true when the caller knows the statement is unchanged)}
// returns: carried
UNWIND $rows AS row
MATCH (old:Fact {version_id: row.old_id})
MATCH (new:Fact {version_id: row.new_id})
SET new.embedding = coalesce(CASE WHEN new.statement = old.statement OR row.same_statement THEN old.embedding END,
                             new.embedding)
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
  @carry_premises(old, new)
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
    // an established version split into pieces keeps the dispute on the pieces the challenger overlaps in valid
    // time (on every piece when none does, so the dispute is never dropped)
    AND ((new.valid_from IS NULL OR ch.valid_to IS NULL OR new.valid_from < ch.valid_to)
         AND (ch.valid_from IS NULL OR new.valid_to IS NULL OR ch.valid_from < new.valid_to)
         OR NOT EXISTS {
           MATCH (piece:Fact)
           WHERE piece.version_id IN [x IN $rows WHERE x.old_id = old.version_id | x.new_id]
             AND (piece.valid_from IS NULL OR ch.valid_to IS NULL OR piece.valid_from < ch.valid_to)
             AND (ch.valid_from IS NULL OR piece.valid_to IS NULL OR ch.valid_from < piece.valid_to)
         })
  CREATE (ch)-[c:CONFLICTS_WITH]->(new)
  SET c = properties(r), c.opened_at = coalesce(r.opened_at, r.known_from), c.known_from = $known,
      c.known_to = null, c.status = 'open'
  SET r.known_to = $known, r.status = 'carried'
  RETURN count(c) AS n
}
RETURN sum(n) AS carried
