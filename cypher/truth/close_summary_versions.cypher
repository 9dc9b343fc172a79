// Stop believing summary versions (and their trace edges), recording how and why they ended.
// $known  known time of the write
// $rows   list of {version_id, ended_by, reason}
// returns: closed (list of version ids actually closed)
UNWIND $rows AS row
MATCH (s:Summary {version_id: row.version_id})
WHERE s.known_to IS NULL
SET s.known_to = $known, s.ended_by = row.ended_by, s.end_reason = row.reason
WITH s
OPTIONAL MATCH (s)-[d:DERIVED_FROM]->()
SET d.known_to = $known
RETURN collect(DISTINCT s.version_id) AS closed
