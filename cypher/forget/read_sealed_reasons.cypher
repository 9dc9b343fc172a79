// The tenant's verdicts whose reason is sealed (crypto-erasure mode): forgetting opens them in Python (Tx.rows) to find
// the reasons quoting forgotten words, which a Cypher comparison cannot see in a ciphertext.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance
// $tenant  tenant id
// returns: verification_id, reason (its envelope; opened by Tx.rows, or the destroyed-key text)
MATCH (v:Verification)
WHERE v.tenant = $tenant AND v.reason STARTS WITH 'enc1:'
RETURN v.verification_id AS verification_id, v.reason AS reason
