// Forget recipes: remove every version's task shape, shape key and steps, and mark the tombstone (the ids, the
// tenant, `because`, the usage record and the state stay, content-free). A version forgotten before keeps its first
// tombstone; one left holding content is scrubbed again.
// $tenant      tenant id
// $recipe_ids  recipe ids
// $known       known time of the forgetting
// $by          who forgot (the acting key or process user)
// $behalf      who the caller said it acted for, or null
// $reason      why
// returns: scrubbed (count of versions)
MATCH (r:Recipe)
WHERE r.recipe_id IN $recipe_ids AND r.tenant = $tenant
REMOVE r.task_shape, r.shape_key, r.steps
SET r.forgotten_by = CASE WHEN r.forgotten_at IS NULL THEN $by ELSE r.forgotten_by END,
    r.forgotten_on_behalf_of = CASE WHEN r.forgotten_at IS NULL THEN $behalf ELSE r.forgotten_on_behalf_of END,
    r.forgotten_reason = CASE WHEN r.forgotten_at IS NULL THEN $reason ELSE r.forgotten_reason END
SET r.forgotten_at = coalesce(r.forgotten_at, $known)
RETURN count(r) AS scrubbed
