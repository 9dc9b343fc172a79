// The whole residue check of forgotten facts (and a forgotten source's citations) in one round trip: version
// properties, lifecycle, edge quotes, relation copies and stale causes of the facts (their dependents' own and the
// cause lines of the state changes that flagged them); summaries and extraction
// episodes deriving from them or holding a text; full-text hits of each text probe (the global index and the
// tenant's own) and vector hits of each embedding
// probe among the tenant's own vectors (its partition index, or an exact scan of its versions); ledger events about
// the forgotten ids whose detail holds a text. The :ForgetProbe node that holds the probe until purge is not read
// here (no index covers it).
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/clearance.py: content above the caller's clearance answers NotFound)
// $tenant       tenant id
// $fact_ids     forgotten fact ids (may be empty)
// $source_ids   forgotten source ids a summary trace may name (may be empty)
// $texts        content texts (may be empty)
// $phrases      one Lucene phrase query per text probe (may be empty)
// $probe_texts  the text each phrase was made from (same order as $phrases)
// $embeddings   embeddings captured before removal (may be empty)
// $candidates   how many nearest nodes each vector probe takes from the index
// $same_vector  a vector hit at least this close is a copy of the forgotten embedding
// $subject_ids  ids the ledger events about the forgotten content have as subject
// $removed      the content-free text a scrubbed summary version holds
// returns: place, ref, detail
CALL () {
  MATCH (f:Fact)
  WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
  CALL (f) {
    WITH f WHERE any(k IN ['statement', 'quote', 'embedding', 'subject_name', 'object_name', 'stale_cause']
                     WHERE f[k] IS NOT NULL) OR (f.object_value IS NOT NULL AND f.object_value <> '')
    RETURN 'node property' AS place, f.version_id AS ref,
           'version still holds ' + reduce(s = '', k IN [k IN ['statement', 'quote', 'embedding', 'subject_name',
                  'object_name', 'stale_cause', 'object_value'] WHERE f[k] IS NOT NULL AND f[k] <> ''] | s + k + ' ') AS detail
    UNION
    WITH f, @state_at(f, null) AS state WHERE f.known_to IS NULL AND state <> 'forgotten'
    RETURN 'lifecycle' AS place, f.version_id AS ref, 'current version is ' + state + ', not forgotten' AS detail
    UNION
    MATCH (f)-[r:SOURCED_FROM]->(s) WHERE r.quote IS NOT NULL
    RETURN 'relation copy' AS place, f.version_id + '->' + s.source_id AS ref, 'SOURCED_FROM edge keeps its quote' AS detail
    UNION
    MATCH ()-[r:RELATED]->() WHERE r.version_id = f.version_id OR r.fact_id = f.fact_id
    RETURN 'relation copy' AS place, elementId(r) AS ref, 'RELATED copy of the fact' AS detail
    UNION
    MATCH (d:Fact)-[:DEPENDS_ON]->(f) WHERE d.stale_cause IS NOT NULL AND any(t IN $texts WHERE d.stale_cause CONTAINS t)
    RETURN 'stale cause' AS place, d.version_id AS ref, 'a dependent quotes the forgotten premise' AS detail
    UNION
    MATCH (d:Fact)-[:DEPENDS_ON]->(f)
    MATCH (d)-[:FLAGGED]->(c:StateChange)
    WHERE any(line IN c.causes WHERE any(t IN $texts WHERE line CONTAINS t))
    RETURN 'stale cause' AS place, c.change_id AS ref, "a state change's cause line quotes the forgotten premise" AS detail
  }
  RETURN place, ref, detail
  UNION
  MATCH (m:Summary)
  WHERE m.tenant = $tenant AND m.text <> $removed
  WITH m,
       EXISTS { (m)-[:DERIVED_FROM]->(f:Fact) WHERE f.fact_id IN $fact_ids } OR
       EXISTS { (m)-[:DERIVED_FROM]->(s:Source) WHERE s.source_id IN $source_ids } AS derived,
       any(t IN $texts WHERE m.text CONTAINS t) AS holds
  WHERE derived OR holds
  RETURN CASE WHEN m.kind = 'episode' THEN 'episode' ELSE 'summary' END AS place, m.version_id AS ref,
         CASE WHEN holds THEN 'its text contains the content' ELSE 'derived from it, text kept' END AS detail
  UNION
  // the global `fact_text` index (small tenants' versions) and the tenant's own full-text index once ready
  OPTIONAL MATCH (p:SearchPartition {tenant: $tenant})
  WITH CASE WHEN p.ready THEN p.text_index END AS own_text
  UNWIND range(0, size($phrases) - 1) AS i
  UNWIND [name IN ['fact_text', own_text] WHERE name IS NOT NULL] AS text_index
  CALL (i, text_index) {
    CALL db.index.fulltext.queryNodes(text_index, $phrases[i]) YIELD node
    WITH node WHERE node.tenant = $tenant
    RETURN node LIMIT 50
  }
  WITH node, text_index, $probe_texts[i] AS text
  WHERE node.fact_id IN $fact_ids OR text = node.statement OR text = node.quote
  RETURN 'full-text' AS place, node.version_id AS ref,
         CASE text_index WHEN 'fact_text' THEN 'the fact_text index' ELSE "the tenant's full-text index" END
         + ' finds it' AS detail
  UNION
  // the tenant's own vectors only (there is no global vector index): its partition index once ready, else an
  // exact scan of its versions
  OPTIONAL MATCH (p:SearchPartition {tenant: $tenant})
  WITH CASE WHEN p.ready THEN p.index END AS own
  UNWIND $embeddings AS embedding
  CALL (own, embedding) {
    WITH own WHERE own IS NOT NULL
    CALL db.index.vector.queryNodes(own, $candidates, embedding) YIELD node, score
    RETURN node, score, "the tenant's vector index" AS found_by
    UNION
    // the seek's key is null once the tenant has its index, so it reads nothing (a filter on `own` alone would be
    // planned above the seek, which then read every version of the tenant beside the index query)
    WITH own WHERE own IS NULL
    MATCH (node:Fact) WHERE node.tenant = CASE WHEN own IS NULL THEN $tenant END AND node.embedding IS NOT NULL
    WITH node, vector.similarity.cosine(node.embedding, embedding) AS score
    WHERE node.fact_id IN $fact_ids OR score >= $same_vector
    RETURN node, score, "an exact scan of the tenant's vectors" AS found_by
  }
  WITH node, score, found_by WHERE node.tenant = $tenant AND (node.fact_id IN $fact_ids OR score >= $same_vector)
  RETURN 'vector' AS place, node.version_id AS ref,
         found_by + ' finds it (score ' + toString(round(score, 4)) + ')' AS detail
  UNION
  MATCH (a:AuditEvent)
  WHERE a.tenant = $tenant AND a.subject_id IN $subject_ids AND any(t IN $texts WHERE a.detail CONTAINS t)
  RETURN 'audit ledger' AS place, a.event_id AS ref, "an event's detail holds the content" AS detail
}
RETURN place, ref, detail
