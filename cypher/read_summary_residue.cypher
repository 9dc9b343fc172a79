// Places that still hold a summary's text: any version not marked, or a current version still served.
// $tenant       tenant id
// $summary_ids  summary ids
// $removed     the content-free text a scrubbed summary version holds
// returns: place, ref, detail
MATCH (m:Summary)
WHERE m.summary_id IN $summary_ids AND m.tenant = $tenant
  AND (m.text <> $removed OR (m.known_to IS NULL AND @state_at(m, null) <> 'forgotten'))
RETURN 'summary' AS place, m.version_id AS ref,
       CASE WHEN m.text <> $removed THEN 'version keeps its text' ELSE 'current version is ' + @state_at(m, null) END AS detail
