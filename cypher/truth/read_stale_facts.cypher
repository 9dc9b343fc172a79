// Current fact versions awaiting re-verification (state stale) that the caller may see, oldest first.
// $tenant  tenant id
// $state   the stale state name
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: fact
MATCH (f:Fact)
WHERE f.tenant = $tenant AND @state_at(f, null) = $state AND f.known_to IS NULL AND @visible(f, $levels)
RETURN f {@fact_fields(f, null), disputed: false} AS fact
ORDER BY f.known_from
