// A version's evidence and premises as believed at a known time: sources, acceptances, premise edges.
// An edge counts when its own known interval contains the point (or always, for a full export).
// $version_id  the fact version
// $known_at    the known-time point
// $any_time    true to return every edge ever recorded, whatever its known interval
// returns: sources, accepted, premises
MATCH (f:Fact {version_id: $version_id})
CALL (f) {
  MATCH (f)-[r:SOURCED_FROM]->(s:Source)
  WHERE $any_time OR @believed_at(r, $known_at)
  WITH r, s ORDER BY r.known_from, s.session_id, s.index
  RETURN collect({source: s {.*, text: null}, quote: r.quote, span: r.span, known_from: r.known_from,
                  known_to: r.known_to}) AS sources
}
CALL (f) {
  MATCH (f)-[r:ACCEPTED_IN]->(s:Source)
  WHERE $any_time OR @believed_at(r, $known_at)
  WITH r, s ORDER BY r.known_from
  RETURN collect({source: s {.*, text: null}, known_from: r.known_from, known_to: r.known_to}) AS accepted
}
CALL (f) {
  MATCH (f)-[r:DEPENDS_ON]->(p:Fact)
  WHERE $any_time OR @believed_at(r, $known_at)
  WITH r, p ORDER BY r.justification, p.fact_id
  RETURN collect({justification: r.justification, premise: p {.*, embedding: null, flag: @flag_at(p, $known_at), disputed: false},
                  believed: COLLECT { MATCH (q:Fact {fact_id: p.fact_id})
                                      WHERE q.tenant = p.tenant AND q.known_from <= $known_at
                                        AND (q.known_to IS NULL OR q.known_to > $known_at)
                                      RETURN q {.*, embedding: null, flag: @flag_at(q, $known_at), disputed: false} }})
    AS premises
}
RETURN sources, accepted, premises
