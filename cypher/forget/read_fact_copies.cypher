// The whole residue check of forgotten facts (and a forgotten source's citations) in one round trip: version
// properties, lifecycle, edge quotes, relation copies and stale causes of the facts (their dependents' own and the
// cause lines of the state changes that flagged them) and the verdicts and review items left on their versions (a
// verdict's reason may quote the statement); summaries and extraction
// episodes deriving from them or holding a text (in their text or their topic); full-text hits of each text probe
// (the `fact_text` index) and vector hits of each embedding probe among the tenant's own vectors (the `fact_search`
// index, filtered to the tenant inside its search: Cypher 25), a hit on another remembered episode (its own event
// in the same words: episodes are append-only) left by design; ledger events about
// the forgotten ids, and every free-text property of the tenant (@free_text_props: reasons, causes, claimed actors,
// task labels, ledger details, through the `free_text` index), that holds a text; read receipts that served a version
// of the facts or whose question
// holds a text and still keep their question; the entities the facts name (and those forgotten with them): one
// that no remembered fact names (through merges) and still holds a name or an alias is residue, one that other
// remembered facts name is left by design; the sources the facts cite that were not forgotten (left by design: their
// text stays until they are forgotten themselves); the stored probes of the targets, if they hold content in clear
// (probes stored before they were sealed).
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant       tenant id
// $fact_ids     forgotten fact ids (may be empty)
// $source_ids   forgotten source ids a summary trace may name (may be empty)
// $receipt_ids  receipts whose sealed question holds a text (opened and compared in Python)
// $texts        content texts (may be empty)
// $phrases      one Lucene phrase query per text probe (may be empty)
// $probe_texts  the text each phrase was made from (same order as $phrases)
// $embeddings   embeddings captured before removal (may be empty)
// $candidates   how many nearest nodes each vector probe takes from the index
// $same_vector  a vector hit at least this close is a copy of the forgotten embedding
// $subject_ids  ids the ledger events about the forgotten content have as subject
// $removed      the content-free text a scrubbed summary version holds
// $removed_topic the content-free topic it holds
// $entity_ids   entities forgotten with the facts (named only by them), known even once the facts are purged
// $probe_ids    the forgotten ids whose stored probe must hold no content in clear
// $free_queries one Lucene query of the `free_text` index per free-text probe
// $free_texts   the text each was made from (same order)
// $free_fields  label -> its free-text properties
// returns: place, ref, detail, kept (true: left by design, not residue)
CYPHER 25
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
    UNION
    MATCH (v:Verification) WHERE v.tenant = $tenant AND v.version_id = f.version_id
    RETURN 'verification' AS place, v.verification_id AS ref, 'a verdict on the forgotten version keeps its reason'
           AS detail
    UNION
    MATCH (r:ReviewItem) WHERE r.tenant = $tenant AND r.version_id = f.version_id
    RETURN 'review item' AS place, r.item_id AS ref, 'a review item still asks a person to judge the forgotten version'
           AS detail
  }
  RETURN place, ref, detail, false AS kept
  UNION
  MATCH (m:Summary)
  WHERE m.tenant = $tenant AND (m.text <> $removed OR coalesce(m.topic, '') <> $removed_topic)
  WITH m,
       EXISTS { (m)-[:DERIVED_FROM]->(f:Fact) WHERE f.fact_id IN $fact_ids } OR
       EXISTS { (m)-[:DERIVED_FROM]->(s:Source) WHERE s.source_id IN $source_ids } AS derived,
       any(t IN $texts WHERE m.text CONTAINS t) AS holds, any(t IN $texts WHERE m.topic CONTAINS t) AS named
  WHERE derived OR holds OR named
  RETURN CASE WHEN m.kind = 'episode' THEN 'episode' ELSE 'summary' END AS place, m.version_id AS ref,
         CASE WHEN holds THEN 'its text contains the content' WHEN named THEN 'its topic contains the content'
              WHEN m.text <> $removed THEN 'derived from it, text kept' ELSE 'derived from it, topic kept' END AS detail,
         false AS kept
  UNION
  UNWIND range(0, size($phrases) - 1) AS i
  CALL (i) {
    CALL db.index.fulltext.queryNodes('fact_text', $phrases[i]) YIELD node
    WITH node WHERE node.tenant = $tenant
    RETURN node LIMIT 50
  }
  WITH node, $probe_texts[i] AS text
  WHERE node.fact_id IN $fact_ids OR text = node.statement OR text = node.quote
  // another episode saying the same words is an event of its own (episodes are append-only): left by design
  WITH node, NOT node.fact_id IN $fact_ids AND node.kind = 'episodic' AS twin
  RETURN 'full-text' AS place, node.version_id AS ref,
         CASE WHEN twin THEN 'another episode says the same words' ELSE 'the fact_text index finds it' END AS detail,
         twin AS kept
  UNION
  // the tenant's own vectors only: the one vector index filters to the tenant inside its search, so another
  // tenant's vectors never take a place of the $candidates nearest
  UNWIND $embeddings AS embedding
  CALL (embedding) {
    MATCH (node:Fact)
      SEARCH node IN (VECTOR INDEX fact_search FOR embedding WHERE node.tenant = $tenant LIMIT $candidates)
      SCORE AS score
    RETURN node, score
  }
  WITH node, score WHERE node.tenant = $tenant AND (node.fact_id IN $fact_ids OR score >= $same_vector)
  WITH node, score, NOT node.fact_id IN $fact_ids AND node.kind = 'episodic' AS twin
  RETURN 'vector' AS place, node.version_id AS ref,
         CASE WHEN twin THEN 'another episode says the same words' ELSE
         'the fact_search vector index finds it (score ' + toString(round(score, 4)) + ')' END AS detail, twin AS kept
  UNION
  CALL () {
    UNWIND range(0, size($free_queries) - 1) AS i
    CALL db.index.fulltext.queryNodes('free_text', $free_queries[i]) YIELD node
    WITH node, $free_texts[i] AS text WHERE node.tenant = $tenant
    RETURN node, text
    UNION
    MATCH (node:AuditEvent)
    WHERE node.tenant = $tenant AND node.subject_id IN $subject_ids
    UNWIND $texts AS text
    RETURN node, text
  }
  WITH node, text, @free_text_props(node, text) AS hit
  WHERE size(hit) > 0
  WITH node, reduce(s = [], h IN collect(hit) | s + [k IN h WHERE NOT k IN s]) AS props,
       head([l IN labels(node) WHERE l IN keys($free_fields)]) AS label
  RETURN CASE WHEN node:AuditEvent THEN 'audit ledger' ELSE 'free text' END AS place,
         label + ':' + coalesce(node.event_id, node.verification_id, node.version_id, node.change_id, node.entity_id,
                                node.source_id, node.job_id, node.target_id, node.receipt_id, elementId(node)) AS ref,
         'its ' + reduce(s = '', k IN props | s + CASE WHEN s = '' THEN '' ELSE ', ' END + k) + ' holds the content'
         + CASE WHEN node:AuditEvent AND any(k IN props WHERE node[k + '_commit'] IS NULL)
                THEN ' (an event written before its free text could be redacted)' ELSE '' END AS detail,
         false AS kept
  UNION
  CALL () {
    MATCH (f:Fact)<-[:SERVED]-(r:ReadReceipt)
    WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant AND r.query IS NOT NULL
    RETURN r
    UNION
    MATCH (r:ReadReceipt)
    WHERE r.tenant = $tenant AND size($texts) > 0 AND r.query IS NOT NULL
      AND any(t IN $texts WHERE toLower(r.query) CONTAINS toLower(t))
    RETURN r
    UNION
    MATCH (r:ReadReceipt)
    WHERE r.receipt_id IN $receipt_ids AND r.tenant = $tenant AND r.query IS NOT NULL
    RETURN r
  }
  RETURN DISTINCT 'read receipt' AS place, r.receipt_id AS ref,
         'keeps the question text of a read that served the forgotten content' AS detail, false AS kept
  UNION
  CALL () {
    MATCH (f:Fact) WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
    UNWIND [f.subject_id, f.object_id] AS id
    RETURN id
    UNION
    UNWIND $entity_ids AS id
    RETURN id
  }
  WITH DISTINCT id WHERE id IS NOT NULL
  MATCH (e:Entity {entity_id: id}) WHERE e.tenant = $tenant
  CALL (e) {
    OPTIONAL MATCH (e)-[:MERGED_INTO*1..]-(o:Entity)
    WITH e, collect(DISTINCT o.entity_id) AS merged
    RETURN [e.entity_id] + merged AS family
  }
  // by the id indexes: a tenant-wide scan here would read every version of the tenant
  WITH e, COUNT { MATCH (g:Fact) USING INDEX g:Fact(subject_id)
                  WHERE g.subject_id IN family AND g.tenant = $tenant AND g.forgotten_at IS NULL
                  RETURN g.fact_id
                  UNION
                  MATCH (g:Fact) USING INDEX g:Fact(object_id)
                  WHERE g.object_id IN family AND g.tenant = $tenant AND g.forgotten_at IS NULL
                  RETURN g.fact_id } AS named,
       e.forgotten_at IS NULL OR size(coalesce(e.aliases, [])) > 0 OR EXISTS { (:Alias)-[:ALIAS_OF]->(e) } AS holds
  WITH e, named, holds WHERE named > 0 OR holds
  RETURN CASE WHEN named > 0 THEN 'entity' ELSE 'entity and aliases' END AS place, e.entity_id AS ref,
         CASE WHEN named > 0 THEN 'still named by ' + toString(named) + ' remembered fact(s): its names stay'
              ELSE 'named only by forgotten facts, keeps its name or aliases' END AS detail, named > 0 AS kept
  UNION
  MATCH (f:Fact)-[:SOURCED_FROM|ACCEPTED_IN]->(s:Source)
  WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant AND s.forgotten_at IS NULL AND NOT s.source_id IN $source_ids
  RETURN DISTINCT 'source' AS place, s.source_id AS ref,
         'the ' + coalesce(s.kind, 'source') + ' it came from keeps its text: forget the source to remove it' AS detail,
         true AS kept
  UNION
  MATCH (p:ForgetProbe)
  WHERE p.tenant = $tenant AND p.target_id IN $probe_ids
    AND (size(coalesce(p.texts, [])) > 0 OR p.vectors IS NOT NULL)
  RETURN 'probe' AS place, p.target_id AS ref, 'the stored probe holds the content in clear' AS detail, false AS kept
}
RETURN place, ref, detail, kept
