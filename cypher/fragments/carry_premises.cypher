// Carry the premise edges (DEPENDS_ON, believed now) of version VERSION to version POINT that replaces it, as copies
// known from this write ($known), binding `c` to each copy: what a claim rests on follows the claim, not one version.
// The one carrier of DEPENDS_ON (cypher/core/carry_version_edges.cypher with the evidence, and
// cypher/gate/carry_depends_on.cypher without it); cypher/truth/create_dependencies.cypher draws new ones.
MATCH (VERSION)-[r:DEPENDS_ON]->(p)
WHERE r.known_to IS NULL
CREATE (POINT)-[c:DEPENDS_ON]->(p)
SET c = properties(r), c.known_from = $known
