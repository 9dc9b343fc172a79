// Places inside the graph that still hold a source's content: its properties and the quotes of edges citing it.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant      tenant id
// $source_ids  source ids
// returns: place, ref, detail
MATCH (s:Source)
WHERE s.source_id IN $source_ids AND s.tenant = $tenant
CALL (s) {
  WITH s WHERE any(k IN ['text', 'title', 'uri', 'author', 'text_hash'] WHERE s[k] IS NOT NULL)
  RETURN 'node property' AS place, s.source_id AS ref, 'source still holds its text or names' AS detail
  UNION
  MATCH (f:Fact)-[r:SOURCED_FROM|ACCEPTED_IN]->(s) WHERE r.quote IS NOT NULL OR r.known_to IS NULL
  RETURN 'relation copy' AS place, f.version_id + '->' + s.source_id AS ref,
         'a fact still cites it (believed edge or quote)' AS detail
}
RETURN DISTINCT place, ref, detail
