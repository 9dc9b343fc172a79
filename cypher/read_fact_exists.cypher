// Whether this tenant has a fact or a version with this id (any state, any time).
// $tenant   tenant id
// $ref      a fact id or a version id
// returns: found (boolean)
RETURN EXISTS { MATCH (f:Fact {fact_id: $ref}) WHERE f.tenant = $tenant }
    OR EXISTS { MATCH (f:Fact {version_id: $ref}) WHERE f.tenant = $tenant } AS found
