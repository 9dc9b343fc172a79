// Whether this tenant has a fact or a version with this id (any state, any time) that the caller may see.
// $tenant   tenant id
// $ref      a fact id or a version id
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: found (boolean)
RETURN EXISTS { MATCH (f:Fact {fact_id: $ref}) WHERE f.tenant = $tenant AND @visible(f, $levels) }
    OR EXISTS { MATCH (f:Fact {version_id: $ref}) WHERE f.tenant = $tenant AND @visible(f, $levels) } AS found
