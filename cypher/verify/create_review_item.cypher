// Queue one fact version the caller may see for a person's review: a :ReviewItem linked to the version by REVIEWS.
// It holds no copy of the statement or of the excerpt (both are read from the version and its sources when listed),
// so forgetting leaves none here. The service first asks read_pending_review, so a version has one pending item.
// $tenant      tenant id
// $version_id  the fact version to review
// $known       known time of the write
// $row         the item's properties (item_id, fact_id, version_id, requested_by)
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: item (the new item's properties)
MATCH (f:Fact {tenant: $tenant, version_id: $version_id})
WHERE @visible(f, $levels)
CREATE (f)<-[:REVIEWS]-(r:ReviewItem)
SET r = $row, r.tenant = $tenant, r.state = 'pending', r.requested_at = $known, r.sensitivity = f.sensitivity
RETURN r {.*} AS item
