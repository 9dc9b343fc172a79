// Whether source VERSION (a message, document, tool result or observation) may be named to a caller cleared for the
// labels POINT, and so be read, quoted, cited or acted on by it: its own label is visible (a source is labelled like
// a fact: unlabelled counts as 'internal'; a caller cleared below that labels its sources with its clearance) and it
// is evidence (SOURCED_FROM or ACCEPTED_IN, at any known time) for no fact version above the clearance. A source
// that is not visible is, for that caller, exactly a missing one: the write gate, acceptance, extraction, cite,
// quarantine and release, why and the context package (services/core/clearance.py).
('*' IN POINT
 OR (@visible(VERSION, POINT)
     AND NOT EXISTS { MATCH (VERSION)<-[:SOURCED_FROM|ACCEPTED_IN]-(backed__:Fact) WHERE NOT @visible(backed__, POINT) }))
