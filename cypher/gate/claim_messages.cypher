// Claim unconsumed messages for one extraction run (the claim is not a consumed mark).
// $source_ids     list of message source ids
// $claim_id       extraction run id
// $claim_expires  instant after which another extractor may take the claim over
// returns: claimed (count)
UNWIND $source_ids AS sid
MATCH (s:Source {source_id: sid})
WHERE s.consumed_by IS NULL
SET s.claimed_by = $claim_id, s.claim_expires = $claim_expires
RETURN count(s) AS claimed
