// The current version of one recipe, when the caller may see it (cypher/fragments/visible.cypher): a recipe of
// another tenant, or above the caller's clearance, is absent exactly like a missing one; so is a forgotten one.
// $tenant     tenant id
// $recipe_id  recipe id
// $levels     sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: recipe
MATCH (r:Recipe {tenant: $tenant, recipe_id: $recipe_id})
WHERE r.known_to IS NULL AND r.forgotten_at IS NULL AND @visible(r, $levels)
RETURN r {.*} AS recipe
