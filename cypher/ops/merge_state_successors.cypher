// Migration 0007: fold each state-only successor b into the version a it replaced: a is believed for b's interval
// too, b's state (with its stale cause and verification time) becomes a FLAGGED edge of a with b's known
// interval, every edge of b is moved to a (an edge b carried from a extends a's twin instead of doubling it; the
// relationship type is copied with Cypher 5.26's dynamic type, never from input), and b is deleted. Reads at every
// known time give the same answer before and after.
// $rows  list of {a_id, b_id}
// returns: merged (number of pairs folded)
UNWIND $rows AS row
MATCH (a:Fact {version_id: row.a_id}), (b:Fact {version_id: row.b_id})
MERGE (c:StateChange {tenant: a.tenant, change_id: 'sc_migration_0007'})
  ON CREATE SET c.kind = 'migration', c.actor = 'migration 0007', c.reason = 'converted from a state-only version',
                c.at = b.known_from
WITH a, b, c, b.known_from AS t
CALL (a, t) {
  MATCH (a)-[r:FLAGGED]->() WHERE r.known_to IS NULL
  SET r.known_to = t
}
CREATE (a)-[:FLAGGED {state: b.state, from_state: a.state, cause: b.stale_cause, actor: 'migration 0007',
                      reason: a.end_reason, known_from: t, known_to: b.known_to,
                      verified_at: CASE WHEN b.verified_at IS NOT NULL
                                         AND (a.verified_at IS NULL OR b.verified_at <> a.verified_at)
                                        THEN b.verified_at END}]->(c)
SET a.known_to = b.known_to, a.ended_by = b.ended_by, a.end_reason = b.end_reason
WITH a, b, t
CALL (a, b, t) {
  MATCH (a)-[r:ABOUT]->() WHERE r.known_to = t
  SET r.known_to = b.known_to
}
CALL (a, b, t) {
  MATCH (b)-[r:SOURCED_FROM|ACCEPTED_IN|DEPENDS_ON|CONFLICTS_WITH|SUPERSEDES]->(x)
  OPTIONAL MATCH (a)-[twin]->(x)
  WHERE type(twin) = type(r) AND (twin.known_to IS NULL OR twin.known_to = t) AND twin.known_from <= t
    AND coalesce(twin.justification, '') = coalesce(r.justification, '')
  WITH r, x, head(collect(twin)) AS twin
  FOREACH (_ IN CASE WHEN twin IS NOT NULL THEN [1] ELSE [] END |
    SET twin.known_to = r.known_to, twin.status = coalesce(r.status, twin.status))
  FOREACH (_ IN CASE WHEN twin IS NULL THEN [1] ELSE [] END |
    CREATE (a)-[copy:$(type(r))]->(x) SET copy = properties(r))
  DELETE r
}
CALL (a, b) {
  MATCH (b)<-[r:DEPENDS_ON|CONFLICTS_WITH|SUPERSEDES|DERIVED_FROM]-(x)
  CREATE (a)<-[copy:$(type(r))]-(x)
  SET copy = properties(r)
  SET copy.version_id = CASE WHEN r.version_id IS NOT NULL THEN a.version_id END
  DELETE r
}
DETACH DELETE b
RETURN count(*) AS merged
