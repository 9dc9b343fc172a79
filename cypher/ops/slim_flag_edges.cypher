// Migration 0012: give state changes their shared cause lines and roots, and their FLAGGED edges the new shape:
// the cause as an index into those lines and the path from the root, no previous state; an edge keeps its own actor
// or reason only where it differs from its state change's (migration 0007 wrote one reason per edge).
// $nodes  list of {node (element id), causes (list of lines), roots (list of fact ids or ''), edges (list of
//         {edge (element id), cause (index, null for the first line or none), path (the fact ids from the root joined by " -> ", or null), actor, reason})}
// returns: edges (how many were converted)
UNWIND $nodes AS n
MATCH (c:StateChange) WHERE elementId(c) = n.node
SET c.causes = n.causes, c.roots = n.roots
WITH c, n
UNWIND n.edges AS e
MATCH ()-[r:FLAGGED]->() WHERE elementId(r) = e.edge
SET r.cause = e.cause, r.path = e.path, r.actor = e.actor, r.reason = e.reason
REMOVE r.from_state
RETURN count(r) AS edges
