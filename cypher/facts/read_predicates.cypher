// Predicates a tenant has defined.
// $tenant  tenant id
// returns: name, cardinality, inverse
MATCH (p:Predicate {tenant: $tenant})
RETURN p.name AS name, p.cardinality AS cardinality, p.inverse AS inverse
ORDER BY p.name
