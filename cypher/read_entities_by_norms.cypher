// Which of several normalised names (the word n-grams of a question) name an entity of the tenant, directly or
// as an alias: the names a context package for a question starts from.
// $tenant   tenant id
// $norms    list of normalised names
// returns: norm (one row per name that names an entity)
UNWIND $norms AS norm
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: norm}) USING INDEX direct:Entity(tenant, norm)
OPTIONAL MATCH (alias:Alias {tenant: $tenant, norm: norm})
WITH norm, direct, alias WHERE direct IS NOT NULL OR alias IS NOT NULL
RETURN DISTINCT norm
