// Move current versions to another state in one step (the cascade flagging stale): close each old version and its
// ABOUT edges, create its successor with the same properties (embedding included) in the new state, with ABOUT edges
// to its subject (and object entity) as create_fact_versions draws them, and carry the old one's believed
// SOURCED_FROM / ACCEPTED_IN / DEPENDS_ON edges, known from this write, and re-point its open CONFLICTS_WITH
// disputes in both directions (as carry_version_edges does: a dispute follows the claim until it is decided). Only versions still believed are moved, so a raced write sees fewer ids than it asked for.
// $known     known time of the write
// $state     the successors' state
// $ended_by  how the old versions ended
// $reason    why the old versions ended
// $rows      list of {old_id, new_id, cause (the successor's stale_cause)}
// returns: moved (list of old version ids actually moved)
UNWIND $rows AS row
MATCH (old:Fact {version_id: row.old_id})
WHERE old.known_to IS NULL
CREATE (new:Fact)
SET new = old {.*, version_id: row.new_id, state: $state, known_from: $known, stale_cause: row.cause}
SET old.known_to = $known, old.ended_by = $ended_by, old.end_reason = $reason
WITH old, new
CALL (old) {
  MATCH (old)-[r:ABOUT]->()
  WHERE r.known_to IS NULL
  SET r.known_to = $known
}
CALL (new) {
  MATCH (s:Entity {entity_id: new.subject_id})
  CREATE (new)-[:ABOUT {role: 'subject', known_from: $known}]->(s)
}
CALL (new) {
  MATCH (o:Entity {entity_id: new.object_id})
  CREATE (new)-[:ABOUT {role: 'object', known_from: $known}]->(o)
}
CALL (old, new) {
  MATCH (old)-[r:SOURCED_FROM]->(s)
  WHERE r.known_to IS NULL
  CREATE (new)-[c:SOURCED_FROM]->(s)
  SET c = properties(r), c.known_from = $known
}
CALL (old, new) {
  MATCH (old)-[r:ACCEPTED_IN]->(s)
  WHERE r.known_to IS NULL
  CREATE (new)-[c:ACCEPTED_IN]->(s)
  SET c = properties(r), c.known_from = $known
}
CALL (old, new) {
  MATCH (old)-[r:DEPENDS_ON]->(p)
  WHERE r.known_to IS NULL
  CREATE (new)-[c:DEPENDS_ON]->(p)
  SET c = properties(r), c.known_from = $known
}
CALL (old, new) {
  MATCH (old)-[r:CONFLICTS_WITH]->(e)
  WHERE (r.known_to IS NULL OR (r.known_to = $known AND r.status = 'carried'))
    AND (e.known_to IS NULL OR e.known_to < $known)
  CREATE (new)-[c:CONFLICTS_WITH]->(e)
  SET c = properties(r), c.opened_at = coalesce(r.opened_at, r.known_from), c.known_from = $known,
      c.known_to = null, c.status = 'open'
  SET r.known_to = $known, r.status = 'carried'
}
CALL (old, new) {
  MATCH (ch)-[r:CONFLICTS_WITH]->(old)
  WHERE (r.known_to IS NULL OR (r.known_to = $known AND r.status = 'carried'))
    AND (ch.known_to IS NULL OR ch.known_to < $known)
  CREATE (ch)-[c:CONFLICTS_WITH]->(new)
  SET c = properties(r), c.opened_at = coalesce(r.opened_at, r.known_from), c.known_from = $known,
      c.known_to = null, c.status = 'open'
  SET r.known_to = $known, r.status = 'carried'
}
RETURN collect(old.version_id) AS moved
