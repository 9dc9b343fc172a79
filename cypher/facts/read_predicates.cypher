// Predicates a tenant has defined, by name, from the one after $after (a page cut in the query by its key).
// $tenant  tenant id
// $after   the name the page starts after (null: from the first)
// $limit   the most predicates to return (a page and one more, to know whether another follows; ALL for all)
// returns: name, cardinality, inverse
MATCH (p:Predicate {tenant: $tenant})
WHERE $after IS NULL OR p.name > $after
RETURN p.name AS name, p.cardinality AS cardinality, p.inverse AS inverse
ORDER BY p.name
LIMIT $limit
