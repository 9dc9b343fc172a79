// Forget summaries: close each current version and write a content-free successor in state forgotten, carrying no
// trace; every version's text and topic are replaced (see scrub_summary_versions).
// $tenant       tenant id
// $rows         list of {summary_id, version_id (the new one)}
// $known        known time of the forgetting
// $text         the content-free text
// $topic        the content-free topic
// $hash         its hash
// returns: forgotten (summary ids)
UNWIND $rows AS row
MATCH (m:Summary {summary_id: row.summary_id})
WHERE m.tenant = $tenant AND m.known_to IS NULL
CREATE (n:Summary)
SET n = m {.*, version_id: row.version_id, state: 'forgotten', known_from: $known, text: $text, topic: $topic, text_hash: $hash,
           stale_cause: null, ended_by: null, end_reason: null}
SET m.known_to = $known, m.ended_by = 'forgotten', m.end_reason = 'forgotten'
RETURN collect(m.summary_id) AS forgotten
