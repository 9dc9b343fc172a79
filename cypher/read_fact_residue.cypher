// Every place inside the graph that still holds content of the given facts: version properties, edge quotes,
// relation copies, dependents' stale causes, and whether a version is still served.
// $tenant    tenant id
// $fact_ids  fact ids
// $texts     content texts (may be empty)
// returns: place, ref, detail
MATCH (f:Fact)
WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
CALL (f) {
  WITH f WHERE any(k IN ['statement', 'quote', 'embedding', 'subject_name', 'object_name', 'stale_cause']
                   WHERE f[k] IS NOT NULL) OR (f.object_value IS NOT NULL AND f.object_value <> '')
  RETURN 'node property' AS place, f.version_id AS ref,
         'version still holds ' + reduce(s = '', k IN [k IN ['statement', 'quote', 'embedding', 'subject_name',
                'object_name', 'stale_cause', 'object_value'] WHERE f[k] IS NOT NULL AND f[k] <> ''] | s + k + ' ') AS detail
  UNION
  WITH f WHERE f.known_to IS NULL AND f.state <> 'forgotten'
  RETURN 'lifecycle' AS place, f.version_id AS ref, 'current version is ' + f.state + ', not forgotten' AS detail
  UNION
  MATCH (f)-[r:SOURCED_FROM]->(s) WHERE r.quote IS NOT NULL
  RETURN 'relation copy' AS place, f.version_id + '->' + s.source_id AS ref, 'SOURCED_FROM edge keeps its quote' AS detail
  UNION
  MATCH ()-[r:RELATED]->() WHERE r.version_id = f.version_id OR r.fact_id = f.fact_id
  RETURN 'relation copy' AS place, elementId(r) AS ref, 'RELATED copy of the fact' AS detail
  UNION
  MATCH (d:Fact)-[:DEPENDS_ON]->(f) WHERE d.stale_cause IS NOT NULL AND any(t IN $texts WHERE d.stale_cause CONTAINS t)
  RETURN 'stale cause' AS place, d.version_id AS ref, 'a dependent quotes the forgotten premise' AS detail
}
RETURN DISTINCT place, ref, detail
