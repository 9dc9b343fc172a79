// Delete the stored probes of purged (or completed tenant-wide) forgets: the last copy of the content goes.
// $tenant      tenant id
// $target_ids  forgotten ids
// returns: deleted
MATCH (p:ForgetProbe)
WHERE p.tenant = $tenant AND p.target_id IN $target_ids
DELETE p
RETURN count(p) AS deleted
