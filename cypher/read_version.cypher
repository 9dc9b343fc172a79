// One fact version by its version id.
// $tenant      tenant id
// $version_id  version id
// returns: fact
MATCH (f:Fact {version_id: $version_id})
WHERE f.tenant = $tenant
RETURN f {.*, embedding: null, disputed: EXISTS { (:Fact)-[c:CONFLICTS_WITH]->(f) WHERE c.known_to IS NULL }} AS fact
