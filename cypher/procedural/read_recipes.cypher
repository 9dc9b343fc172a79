// The recipes of one task shape in the given states, as believed now ($known null: the current versions) or at a
// past known time, that the caller may see; best first: by rate, then uses, then id (a total order), one page of it:
// those after the key ($after_rate, $after_uses, $after_id: the last row of the page before; $after_id null: from
// the first), at most $limit. A forgotten version is never among them, at any known time (forgetting removed its
// shape key too).
// $tenant      tenant id
// $shape_key   the task shape's normalised signature (services/procedural/rules.py `shape_key`)
// $states      the states to answer with (recipes serves only live ones)
// $known       known time of the read, or null for now
// $after_rate  the rate of the key the page starts after (null: the first page)
// $after_uses  the uses of that key
// $after_id    the recipe id of that key (null: the first page)
// $limit       the most rows to answer
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: recipe
MATCH (r:Recipe {tenant: $tenant, shape_key: $shape_key})
WHERE (CASE WHEN $known IS NULL THEN r.known_to IS NULL ELSE @believed_at(r, $known) END)
  AND r.forgotten_at IS NULL AND r.state IN $states AND @visible(r, $levels)
  AND ($after_id IS NULL OR r.rate < $after_rate
       OR (r.rate = $after_rate AND (r.uses < $after_uses OR (r.uses = $after_uses AND r.recipe_id > $after_id))))
RETURN r {.*} AS recipe
ORDER BY r.rate DESC, r.uses DESC, r.recipe_id
LIMIT $limit
