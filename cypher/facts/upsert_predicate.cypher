// Define or redefine how a predicate behaves for a tenant.
// $tenant       tenant id
// $name         predicate name
// $cardinality  'single' or 'multi'
// $inverse      inverse name or null
// $known        known time of the write
// returns: name, cardinality, inverse
MERGE (p:Predicate {tenant: $tenant, name: $name})
SET p.cardinality = $cardinality, p.inverse = $inverse, p.defined_at = $known
RETURN p.name AS name, p.cardinality AS cardinality, p.inverse AS inverse
