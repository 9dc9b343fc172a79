// Which of several normalised names (the word n-grams of a question) name an entity of the tenant, directly or
// as an alias, and the caller may see a fact about it (or about an entity merged into it): the names a context
// package for a question starts from.
// $tenant   tenant id
// $norms    list of normalised names
// $levels  sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: norm (one row per name that names an entity)
UNWIND $norms AS norm
// the (tenant, norm) key, not the tenant's index: the planner otherwise scans the tenant's entities
OPTIONAL MATCH (direct:Entity {tenant: $tenant, norm: norm}) USING INDEX direct:Entity(tenant, norm)
OPTIONAL MATCH (alias:Alias {tenant: $tenant, norm: norm})
OPTIONAL MATCH (alias)-[:ALIAS_OF]->(aliased:Entity)
WITH norm, coalesce(direct, aliased) AS e WHERE e IS NOT NULL
WITH norm, [e.entity_id] + [(o:Entity)-[:MERGED_INTO*1..]->(e) | o.entity_id] AS ids
WHERE @visible_entity(ids, $levels)
RETURN DISTINCT norm
