// The state flag of version VERSION believed at known point POINT (null = believed now), as a map, or null when
// none is: the one place the flags' known interval is read (state_at applies it to the version's own state). A
// version never flagged (most are) is told by its degree, without walking its relationships.
CASE WHEN COUNT { (VERSION)-[:FLAGGED]->() } > 0 THEN
head([(VERSION)-[flag__:FLAGGED]->(:StateChange)
      WHERE CASE WHEN POINT IS NULL THEN flag__.known_to IS NULL
                 ELSE flag__.known_from <= POINT AND (flag__.known_to IS NULL OR flag__.known_to > POINT) END
      | flag__ {.state, .cause, .actor, .reason, .from_state,
                known_from: toString(flag__.known_from), verified_at: toString(flag__.verified_at)}]) END
