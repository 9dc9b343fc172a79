// The state flag of version VERSION believed at known point POINT (null = believed now), as a map, or null when
// none is: the one place the flags' known interval is read (state_at applies it to the version's own state). A
// version never flagged (most are) is told by its degree, without walking its relationships. The edge holds the
// state, its known interval and its cause (an index into its :StateChange's cause lines, absent for the first,
// and a cascade's path, as the text shown: the fact ids from the root joined by " -> ", migration 0024);
// the node what the flags of one write share (actor, reason, verification time; an edge's own actor, reason or
// verified_at, which migration 0007 wrote per edge, comes first).
CASE WHEN COUNT { (VERSION)-[:FLAGGED]->() } > 0 THEN
head([(VERSION)-[flag__:FLAGGED]->(change__:StateChange)
      WHERE CASE WHEN POINT IS NULL THEN flag__.known_to IS NULL
                 ELSE flag__.known_from <= POINT AND (flag__.known_to IS NULL OR flag__.known_to > POINT) END
      | {state: flag__.state, cause: change__.causes[coalesce(flag__.cause, 0)], path: flag__.path,
         actor: coalesce(flag__.actor, change__.actor), reason: coalesce(flag__.reason, change__.reason),
         known_from: toString(flag__.known_from),
         verified_at: toString(coalesce(flag__.verified_at, change__.verified_at))}]) END
