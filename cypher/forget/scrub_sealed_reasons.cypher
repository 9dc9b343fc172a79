// Replace the sealed reasons found (opened in Python) to quote forgotten content: each verdict stays, its reason is
// the content-free text free text gets (services/forget/rules.py FREE_REMOVED), as a plaintext reason would.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance
// $tenant            tenant id
// $verification_ids  the verdicts whose reason quotes forgotten content
// $removed           the text left in its place
// returns: scrubbed
MATCH (v:Verification)
WHERE v.tenant = $tenant AND v.verification_id IN $verification_ids
SET v.reason = $removed
RETURN count(v) AS scrubbed
