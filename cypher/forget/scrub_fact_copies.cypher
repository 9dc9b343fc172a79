// Forgetting's one scrub of facts' content, in one round trip: every version's statement, quote, embedding, names
// and literal object (and the quotes on their SOURCED_FROM edges), with the tombstone; dependents' stale causes
// quoting a forgotten premise (a version's own, from before flags, and the cause lines of the state changes that
// flagged them); summary and episode versions deriving from the facts or sources or holding a text in their text or
// topic (both go: a topic is by default the text's first line);
// the question text of every read receipt that served a version of the facts or whose question holds a text
// (case-insensitive); the verdicts (:Verification, whose reason may quote the statement) and review items of every
// version of the facts, deleted (the ledger keeps its content-free verify and review events); and every free-text
// property of the tenant that holds a text (@free_text_props: reasons, causes, claimed actors, task labels, ledger
// details; found through the `free_text` index, and among the ledger events about the forgotten ids): a ledger
// event's is redacted (its value and salt go, its digest stays, so the hash chain holds: schema/ledger.py; a chained
// event written before commitments is left, and reported; one written before the chain, which no hash covers, loses
// the value), a task label is replaced on the task and all its receipts, a forget job's report is dropped, any
// other value is replaced by $free_removed (a list keeps its other lines). The indexes drop removed properties
// themselves.
// $tenant       tenant id
// $fact_ids     fact ids (may be empty)
// $source_ids   forgotten source ids a summary trace may name (may be empty)
// $receipt_ids  receipts whose sealed question holds a text (opened and compared in Python)
// $texts        content texts (may be empty)
// $subject_ids  ids the ledger events about the forgotten content have as subject
// $known        known time of the forgetting
// $by           who forgot (the acting key or process user)
// $behalf       who the caller said it acted for, or null
// $reason       why
// $cause        what is left in place of a stale cause that quoted a forgotten premise
// $removed      the content-free text a scrubbed summary version holds
// $removed_topic the content-free topic it holds
// $hash         its hash
// $free_queries one Lucene query of the `free_text` index per free-text probe
// $free_texts   the text each was made from (same order)
// $free_fields  label -> its free-text properties
// $free_removed the content-free text left in place of a free-text value naming the content
// $free_dropped free-text properties removed rather than replaced (a job's JSON report)
// $task_removed the prefix of the content-free label a task naming the content takes
// returns: versions, causes (stale causes and cause lines), free (nodes whose free text was removed or redacted),
//          receipts (counts scrubbed), verdicts (verdicts and review items deleted), rebuild (ids of current
//          summaries to rebuild without it)
CALL () {
  MATCH (f:Fact)
  WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
  REMOVE f.statement, f.quote, f.embedding, f.subject_name, f.object_name, f.stale_cause, f.lapse_reason
  SET f.object_value = '', f.forgotten_at = $known, f.forgotten_by = $by, f.forgotten_on_behalf_of = $behalf,
      f.forgotten_reason = $reason,
      f.end_reason = CASE WHEN f.end_reason IS NULL THEN null ELSE 'forgotten' END
  WITH f
  CALL (f) {
    MATCH (f)-[r:SOURCED_FROM]->()
    REMOVE r.quote, r.span
  }
  RETURN count(f) AS versions
}
CALL () {
  MATCH (d:Fact)-[:DEPENDS_ON]->(p:Fact)
  WHERE p.fact_id IN $fact_ids AND d.tenant = $tenant AND d.stale_cause IS NOT NULL
    AND any(t IN $texts WHERE d.stale_cause CONTAINS t)
  WITH DISTINCT d
  SET d.stale_cause = $cause
  RETURN count(d) AS causes
}
CALL () {
  MATCH (d:Fact)-[:DEPENDS_ON]->(p:Fact)
  WHERE p.fact_id IN $fact_ids AND d.tenant = $tenant
  MATCH (d)-[:FLAGGED]->(c:StateChange)
  WHERE any(line IN c.causes WHERE any(t IN $texts WHERE line CONTAINS t))
  WITH DISTINCT c
  SET c.causes = [line IN c.causes | CASE WHEN any(t IN $texts WHERE line CONTAINS t) THEN $cause ELSE line END]
  RETURN count(c) AS lines
}
CALL () {
  MATCH (m:Summary)
  WHERE m.tenant = $tenant AND (m.text <> $removed OR coalesce(m.topic, '') <> $removed_topic)
    AND (EXISTS { (m)-[:DERIVED_FROM]->(f:Fact) WHERE f.fact_id IN $fact_ids }
         OR EXISTS { (m)-[:DERIVED_FROM]->(s:Source) WHERE s.source_id IN $source_ids }
         OR any(t IN $texts WHERE m.text CONTAINS t OR m.topic CONTAINS t))
  WITH m, CASE WHEN m.known_to IS NULL AND coalesce(m.kind, '') <> 'episode' THEN m.summary_id END AS again
  SET m.text = $removed, m.topic = $removed_topic, m.text_hash = $hash,
      m.content_removed_at = $known, m.content_removed_by = $by, m.content_removed_on_behalf_of = $behalf,
      m.content_removed_reason = $reason
  RETURN collect(DISTINCT again) AS rebuild
}
CALL () {
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
  WITH DISTINCT r
  REMOVE r.query
  SET r.query_removed_at = $known, r.query_removed_by = $by, r.query_removed_on_behalf_of = $behalf,
      r.query_removed_reason = $reason
  RETURN count(r) AS receipts
}
CALL () {
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
  WITH node, collect(text) AS texts, reduce(s = [], h IN collect(hit) | s + [k IN h WHERE NOT k IN s]) AS props
  FOREACH (k IN CASE WHEN node:AuditEvent THEN [k IN props WHERE node[k + '_commit'] IS NOT NULL] ELSE [] END |
    SET node[k + '_commit'] = ':' + split(node[k + '_commit'], ':')[1], node[k] = null)
  FOREACH (k IN CASE WHEN node:AuditEvent AND node.seq IS NULL THEN [k IN props WHERE node[k + '_commit'] IS NULL]
                ELSE [] END |
    SET node[k] = null)
  FOREACH (t IN CASE WHEN node:ReadReceipt AND 'task' IN props THEN [(node)-[:FOR_TASK]->(t:Task) | t] ELSE [] END |
    SET t.name = $task_removed + randomUUID() + ']'
    FOREACH (r IN [(t)<-[:FOR_TASK]-(r:ReadReceipt) | r] | SET r.task = t.name))
  FOREACH (k IN CASE WHEN node:AuditEvent THEN [] ELSE [k IN props WHERE NOT (node:ReadReceipt AND k = 'task')] END |
    SET node[k] = CASE WHEN k IN $free_dropped THEN null
                       WHEN node[k] IS :: LIST<STRING NOT NULL>
                         THEN [x IN node[k] | CASE WHEN any(t IN texts WHERE toLower(x) CONTAINS toLower(t))
                                                   THEN $free_removed ELSE x END]
                       ELSE $free_removed END)
  RETURN count(node) AS free
}
CALL () {
  MATCH (f:Fact)
  WHERE f.fact_id IN $fact_ids AND f.tenant = $tenant
  CALL (f) {
    MATCH (v:Verification) WHERE v.tenant = $tenant AND v.version_id = f.version_id
    RETURN v AS n
    UNION
    MATCH (r:ReviewItem) WHERE r.tenant = $tenant AND r.version_id = f.version_id
    RETURN r AS n
  }
  DETACH DELETE n
  RETURN count(*) AS verdicts
}
RETURN versions, causes + lines AS causes, free, receipts, verdicts, rebuild
