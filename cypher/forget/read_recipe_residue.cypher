// Recipe versions that still hold content after a forget: those of the recipes named, and of the recipes earned by
// the sources named (`because`), keeping a task shape, a shape key or steps, or not marked forgotten.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant      tenant id
// $recipe_ids  recipe ids
// $source_ids  source ids: the recipes whose `because` is one of them
// returns: place, ref, detail
MATCH (r:Recipe)
WHERE r.tenant = $tenant AND (r.recipe_id IN $recipe_ids OR r.because IN $source_ids)
  AND (r.forgotten_at IS NULL OR r.task_shape IS NOT NULL OR r.shape_key IS NOT NULL OR r.steps IS NOT NULL)
RETURN 'recipe' AS place, r.version_id AS ref,
       'recipe version of ' + r.recipe_id + ' still holds its task shape or steps' AS detail
