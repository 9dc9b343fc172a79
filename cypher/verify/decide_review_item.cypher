// Close a pending review item with a person's decision (approved, rejected, edited), at the write's known time.
// An item already decided is left as it is (no row: the caller reports it).
// $tenant      tenant id
// $item_id     review item id
// $state       approved | rejected | edited
// $known       known time of the write
// $decided_by  the person (the acting key's actor)
// $verification_id  the verdict recorded for the decision
// returns: item (the item's properties after the decision)
MATCH (r:ReviewItem {tenant: $tenant, item_id: $item_id, state: 'pending'})
SET r.state = $state, r.decided_at = $known, r.decided_by = $decided_by, r.verification_id = $verification_id
RETURN r {.*} AS item
