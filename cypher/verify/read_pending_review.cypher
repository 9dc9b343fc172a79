// The pending review item of one fact version, if there is one (a version is queued once until decided).
// $tenant      tenant id
// $version_id  the fact version
// returns: item (the item's properties)
MATCH (r:ReviewItem {tenant: $tenant, version_id: $version_id, state: 'pending'})
RETURN r {.*} AS item
LIMIT 1
