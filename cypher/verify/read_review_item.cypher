// One review item, when the caller may see its fact version: an item of another tenant, on a version above the
// caller's clearance, or on a forgotten version, is absent exactly like a missing one.
// $tenant   tenant id
// $item_id  review item id
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: item (the item's properties)
MATCH (r:ReviewItem {tenant: $tenant, item_id: $item_id})-[:REVIEWS]->(f:Fact)
WHERE @visible(f, $levels) AND f.forgotten_at IS NULL
RETURN r {.*} AS item
