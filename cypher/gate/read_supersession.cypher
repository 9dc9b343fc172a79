// The supersession chain around a version as known at a point: what it supersedes and what supersedes it.
// Every edge on a path must have been known at the point.
// $version_id  the fact version
// $known_at    the known-time point
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: direction, hops, kind, at, withheld, fact (null when withheld)
MATCH (f:Fact {version_id: $version_id})
CALL (f) {
  MATCH p = (f)-[:SUPERSEDES*1..20]->(o:Fact)
  WHERE all(r IN relationships(p) WHERE r.known_from <= $known_at)
  RETURN 'supersedes' AS direction, length(p) AS hops, last(relationships(p)) AS rel, o AS other
  UNION ALL
  MATCH p = (n:Fact)-[:SUPERSEDES*1..20]->(f)
  WHERE all(r IN relationships(p) WHERE r.known_from <= $known_at)
  RETURN 'superseded_by' AS direction, length(p) AS hops, head(relationships(p)) AS rel, n AS other
}
// a version above the caller's clearance is named by nothing but its place in the chain (withheld, no content)
WITH direction, hops, rel, other, @visible(other, $levels) AS visible
RETURN direction, hops, rel.kind AS kind, rel.at AS at, NOT visible AS withheld,
       CASE WHEN visible THEN other {@fact_fields(other, $known_at), disputed: false} END AS fact
ORDER BY direction, hops
