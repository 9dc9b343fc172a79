// Current fact versions awaiting re-verification (state stale), oldest first.
// $tenant  tenant id
// $state   the stale state name
// returns: fact
MATCH (f:Fact)
WHERE f.tenant = $tenant AND @state_at(f, null) = $state AND f.known_to IS NULL
RETURN f {.*, embedding: null, flag: @flag_at(f, null), disputed: false} AS fact
ORDER BY f.known_from
