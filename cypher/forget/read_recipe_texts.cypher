// The recipes a forget reaches and their text, read before it goes: the recipes named by id and those earned by one
// of the sources (`because`), each with the shapes, shape keys and steps its versions still hold (every version,
// already forgotten ones too, so a version left holding content is scrubbed again).
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant      tenant id
// $recipe_ids  recipe ids
// $source_ids  source ids: the recipes whose `because` is one of them
// returns: recipe_id, texts (list of lists: each version's shape, shape key and steps)
MATCH (r:Recipe)
WHERE r.tenant = $tenant AND (r.recipe_id IN $recipe_ids OR r.because IN $source_ids)
RETURN r.recipe_id AS recipe_id,
       collect([t IN [r.task_shape, r.shape_key] WHERE t IS NOT NULL] + coalesce(r.steps, [])) AS texts
