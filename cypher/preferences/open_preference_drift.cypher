// Open a drift item for a preference in the conflicts queue, unless one is already open for it (then nothing is
// created and no row returns): one open item per preference.
// $tenant  tenant id
// $known   known time of the write (when the item opens)
// $row     the item's properties (conflict_id, fact_id, version_id, short_mean, long_mean, threshold, window, sensitivity)
// returns: conflict_id
OPTIONAL MATCH (open:PreferenceDrift {tenant: $tenant, fact_id: $row.fact_id})
WHERE open.known_to IS NULL
WITH count(open) AS already
WHERE already = 0
CREATE (d:PreferenceDrift)
SET d = $row, d.tenant = $tenant, d.status = 'open', d.known_from = $known
RETURN d.conflict_id AS conflict_id
