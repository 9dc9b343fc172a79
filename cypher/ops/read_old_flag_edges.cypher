// Migration 0012: state changes whose FLAGGED edges still have the old shape (the previous state, and the whole
// cause text, on every edge), each with all its edges, so the data step converts a state change in one go.
// $limit  at most this many state changes
// returns: node (element id), actor, reason, edges (list of {edge (element id), cause, actor, reason})
MATCH (c:StateChange)
WHERE EXISTS { (c)<-[r:FLAGGED]-() WHERE r.from_state IS NOT NULL OR r.cause IS :: STRING NOT NULL }
WITH c LIMIT $limit
MATCH (c)<-[r:FLAGGED]-()
RETURN elementId(c) AS node, c.actor AS actor, c.reason AS reason,
       collect({edge: elementId(r), cause: r.cause, actor: r.actor, reason: r.reason}) AS edges
