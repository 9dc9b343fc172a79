// Places that still hold a summary's text or topic: any version not marked, or a current version still served.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant       tenant id
// $summary_ids  summary ids
// $removed       the content-free text a scrubbed summary version holds
// $removed_topic the content-free topic it holds
// returns: place, ref, detail
MATCH (m:Summary)
WHERE m.summary_id IN $summary_ids AND m.tenant = $tenant
  AND (m.text <> $removed OR coalesce(m.topic, '') <> $removed_topic
       OR (m.known_to IS NULL AND @state_at(m, null) <> 'forgotten'))
RETURN 'summary' AS place, m.version_id AS ref,
       CASE WHEN m.text <> $removed THEN 'version keeps its text'
            WHEN coalesce(m.topic, '') <> $removed_topic THEN 'version keeps its topic'
            ELSE 'current version is ' + @state_at(m, null) END AS detail
