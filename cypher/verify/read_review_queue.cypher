// The pending review items whose fact version the caller may see, oldest first by a unique key (requested at, item
// id); a page is cut here by that key (keyset), never from the whole list.
// $tenant  tenant id
// $levels  sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// $after   [requested_at (ISO 8601 text), item id] of the item the page starts after (null: from the first)
// $limit   the most items to return (a page and one more, to know whether another follows; ALL for all)
// returns: item (the item's properties)
MATCH (r:ReviewItem {tenant: $tenant, state: 'pending'})-[:REVIEWS]->(f:Fact)
WHERE @visible(f, $levels) AND f.forgotten_at IS NULL
  AND ($after IS NULL OR r.requested_at > datetime($after[0])
       OR (r.requested_at = datetime($after[0]) AND r.item_id > $after[1]))
WITH r ORDER BY r.requested_at, r.item_id
LIMIT $limit
RETURN r {.*} AS item
ORDER BY item.requested_at, item.item_id
