// Places that still hold a summary's text: any version not marked, or a current version still served.
// $tenant       tenant id
// $summary_ids  summary ids
// returns: place, ref, detail
MATCH (m:Summary)
WHERE m.summary_id IN $summary_ids AND m.tenant = $tenant
  AND (m.content_removed_at IS NULL OR (m.known_to IS NULL AND m.state <> 'forgotten'))
RETURN 'summary' AS place, m.version_id AS ref,
       CASE WHEN m.content_removed_at IS NULL THEN 'version keeps its text' ELSE 'current version is ' + m.state END AS detail
