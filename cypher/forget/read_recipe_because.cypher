// The source each recipe was earned by (`because`), read from any of its versions (a forgotten recipe keeps it on its
// tombstone): in crypto-erasure mode a recipe's task shape and steps are sealed under that source's key.
// clearance: not applied: a forget's report reaches its target whatever the clearance; the target itself was
//   checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant      tenant id
// $recipe_ids  recipe ids
// returns: recipe_id, because (the source id)
MATCH (r:Recipe)
WHERE r.tenant = $tenant AND r.recipe_id IN $recipe_ids AND r.because IS NOT NULL
RETURN r.recipe_id AS recipe_id, collect(DISTINCT r.because)[0] AS because
