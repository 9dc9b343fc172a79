// Flag version VERSION (a fact or summary version) into the write's :StateChange node POINT, known from $known: its
// previous open flag (if any: told by its degree, no walk of its relationships otherwise) stops being believed now,
// and a FLAGGED edge carries only what a read at a known point needs: the state, its own known interval and its
// cause, from the statement's `row` {state, cause (an index into the node's cause lines), path (from the root, for a
// cascade)}. The version itself is not touched (its history stays immutable). The one writer of FLAGGED.
CALL (VERSION) {
  WITH VERSION WHERE COUNT { (VERSION)-[:FLAGGED]->() } > 0
  MATCH (VERSION)-[open:FLAGGED]->(:StateChange)
  WHERE open.known_to IS NULL
  SET open.known_to = $known
}
CREATE (VERSION)-[:FLAGGED {state: row.state, cause: row.cause, path: row.path, known_from: $known}]->(POINT)
