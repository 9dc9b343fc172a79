// Close a conflict with its decision.
// $conflict_id  conflict id
// $decision     decision text
// $known        known time of the write
// returns: closed
MATCH ()-[r:CONFLICTS_WITH {conflict_id: $conflict_id}]->()
WHERE r.known_to IS NULL
SET r.known_to = $known, r.status = 'resolved', r.decision = $decision
RETURN count(r) AS closed
