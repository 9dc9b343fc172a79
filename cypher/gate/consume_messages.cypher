// Mark claimed messages consumed by an extraction and drop the claim; only messages this run still holds.
// $source_ids  list of message source ids
// $claim_id    extraction run id
// $known       known time of the write
// returns: consumed (list of source ids actually marked)
UNWIND $source_ids AS sid
MATCH (s:Source {source_id: sid})
WHERE s.claimed_by = $claim_id AND s.consumed_by IS NULL
SET s.consumed_by = $claim_id, s.consumed_at = $known
REMOVE s.claimed_by, s.claim_expires
RETURN collect(s.source_id) AS consumed
