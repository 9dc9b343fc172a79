// A version's evidence and premises as believed at a known time: sources, acceptances, premise edges. A premise
// version above the caller's clearance is withheld: no statement, no content, only its state and intervals; a source
// the caller may not see (cypher/fragments/visible_source.cypher) is only counted (no id, title, uri or quote).
// An edge counts when its own known interval contains the point (or always, for a full export).
// $version_id  the fact version
// $known_at    the known-time point
// $any_time    true to return every edge ever recorded, whatever its known interval
// $levels      sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: sources, accepted, sources_withheld, accepted_withheld (counts), premises (each {justification, withheld,
//          premise (null when withheld), believed})
MATCH (f:Fact {version_id: $version_id})
CALL (f) {
  MATCH (f)-[r:SOURCED_FROM]->(s:Source)
  WHERE $any_time OR @believed_at(r, $known_at)
  WITH r, s, @visible_source(s, $levels) AS visible ORDER BY r.known_from, s.session_id, s.index
  RETURN collect(CASE WHEN visible THEN {source: s {.*, text: null}, quote: r.quote, span: r.span,
                                        known_from: r.known_from, known_to: r.known_to} END) AS sources,
         count(CASE WHEN NOT visible THEN 1 END) AS sources_withheld
}
CALL (f) {
  MATCH (f)-[r:ACCEPTED_IN]->(s:Source)
  WHERE $any_time OR @believed_at(r, $known_at)
  WITH r, s, @visible_source(s, $levels) AS visible ORDER BY r.known_from
  RETURN collect(CASE WHEN visible THEN {source: s {.*, text: null}, known_from: r.known_from,
                                        known_to: r.known_to} END) AS accepted,
         count(CASE WHEN NOT visible THEN 1 END) AS accepted_withheld
}
CALL (f) {
  MATCH (f)-[r:DEPENDS_ON]->(p:Fact)
  WHERE $any_time OR @believed_at(r, $known_at)
  WITH r, p ORDER BY r.justification, p.fact_id
  WITH r, p, @visible(p, $levels) AS visible
  // a premise above the caller's clearance: no content, only what says whether it is believed (its state and
  // intervals), so the justification's verdict is the same for every caller
  RETURN collect({justification: r.justification, withheld: NOT visible,
                  premise: CASE WHEN visible
                                THEN p {@fact_fields(p, $known_at), disputed: false} END,
                  believed: COLLECT { MATCH (q:Fact {fact_id: p.fact_id})
                                      WHERE q.tenant = p.tenant AND q.known_from <= $known_at
                                        AND (q.known_to IS NULL OR q.known_to > $known_at)
                                      RETURN CASE WHEN visible AND @visible(q, $levels)
                                                  THEN q {@fact_fields(q, $known_at),
                                                          disputed: false}
                                                  ELSE {withheld: true, state: @state_at(q, $known_at),
                                                        known_from: q.known_from, known_to: q.known_to,
                                                        valid_from: q.valid_from, valid_to: q.valid_to} END }})
    AS premises
}
RETURN sources, accepted, sources_withheld, accepted_withheld, premises
