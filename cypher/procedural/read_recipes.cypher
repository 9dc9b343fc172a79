// The recipes of one task shape in the given states, as believed now ($known null: the current versions) or at a
// past known time, that the caller may see; best first: by rate, then uses, then id (a total order). A forgotten
// version is never among them, at any known time (forgetting removed its shape key too).
// $tenant     tenant id
// $shape_key  the task shape's normalised signature (services/procedural/rules.py `shape_key`)
// $states     the states to answer with (recipes serves only live ones)
// $known      known time of the read, or null for now
// $levels     sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: recipe
MATCH (r:Recipe {tenant: $tenant, shape_key: $shape_key})
WHERE (CASE WHEN $known IS NULL THEN r.known_to IS NULL ELSE @believed_at(r, $known) END)
  AND r.forgotten_at IS NULL AND r.state IN $states AND @visible(r, $levels)
RETURN r {.*} AS recipe
ORDER BY r.rate DESC, r.uses DESC, r.recipe_id
