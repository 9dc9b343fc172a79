// Remove the text and the topic of summary versions that held forgotten content (their trace stays); mark the
// tombstone.
// $version_ids  summary version ids
// $text         the content-free text left in place
// $topic        the content-free topic left in place
// $hash         its hash
// $known        known time of the forgetting
// $by           who forgot (the acting key or process user)
// $behalf       who the caller said it acted for, or null
// $reason       why
// returns: scrubbed
MATCH (m:Summary)
WHERE m.version_id IN $version_ids
SET m.text = $text, m.topic = $topic, m.text_hash = $hash, m.content_removed_at = $known, m.content_removed_by = $by,
    m.content_removed_on_behalf_of = $behalf,
    m.content_removed_reason = $reason
RETURN count(m) AS scrubbed
