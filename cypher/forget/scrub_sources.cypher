// Forget sources: remove their text, title, uri and author, mark the tombstone, strip the quotes on the edges that
// cite them (and a citing version's own quote when it is that quote), and stop believing those edges.
// $tenant      tenant id
// $source_ids  source ids
// $known       known time of the forgetting
// $by          who forgot (the acting key or process user)
// $behalf      who the caller said it acted for, or null
// $reason      why
// returns: scrubbed
MATCH (s:Source)
WHERE s.source_id IN $source_ids AND s.tenant = $tenant
CALL (s) {
  MATCH (f:Fact)-[r:SOURCED_FROM|ACCEPTED_IN]->(s)
  SET f.quote = CASE WHEN r.quote IS NOT NULL AND f.quote = r.quote THEN null ELSE f.quote END
  SET r.known_to = coalesce(r.known_to, $known)
  REMOVE r.quote, r.span
}
REMOVE s.text, s.title, s.uri, s.author, s.text_hash
SET s.forgotten_at = $known, s.forgotten_by = $by, s.forgotten_on_behalf_of = $behalf, s.forgotten_reason = $reason
RETURN count(s) AS scrubbed
