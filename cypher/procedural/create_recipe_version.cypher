// Write a recipe's new version: close the version it replaces (when $previous names one) at the write's known time
// and create the new one, known from then on. A recipe is never deleted: its versions are its history.
// $tenant    tenant id
// $known     known time of the write
// $previous  version id of the current version it replaces (null for a new recipe)
// $row       the new version's properties (recipe_id, version_id, task_shape, shape_key, steps, because, user_facing, state, uses, successes, rate, sensitivity,
//            write_plan)
// returns: version_id
OPTIONAL MATCH (old:Recipe {tenant: $tenant, version_id: $previous})
WHERE old.known_to IS NULL
SET old.known_to = $known
CREATE (r:Recipe)
SET r = $row, r.tenant = $tenant, r.known_from = $known
RETURN r.version_id AS version_id
