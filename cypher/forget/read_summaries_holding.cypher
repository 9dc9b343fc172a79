// Summary versions (digests and extraction episodes) that derive from the given facts' versions or sources, or
// whose text or topic contains one of the given texts: the places a forgotten content may have been copied to.
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant      tenant id
// $fact_ids    fact ids whose versions a trace may name
// $source_ids  source ids a trace may name
// $texts       content texts a summary text must not contain
// $removed     the content-free text a scrubbed version holds (with $removed_topic as its topic: those are done)
// $removed_topic the content-free topic a scrubbed version holds
// returns: version_id, summary_id, kind, current (believed now), derived (its trace names an input), holds (its text
//          or topic contains a text)
MATCH (m:Summary)
WHERE m.tenant = $tenant AND (m.text <> $removed OR coalesce(m.topic, '') <> $removed_topic)
WITH m,
     EXISTS { (m)-[:DERIVED_FROM]->(f:Fact) WHERE f.fact_id IN $fact_ids } OR
     EXISTS { (m)-[:DERIVED_FROM]->(s:Source) WHERE s.source_id IN $source_ids } AS derived,
     any(t IN $texts WHERE m.text CONTAINS t OR m.topic CONTAINS t) AS holds
WHERE derived OR holds
RETURN m.version_id AS version_id, m.summary_id AS summary_id, m.kind AS kind, m.known_to IS NULL AS current,
       derived, holds
