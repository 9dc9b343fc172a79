// Whether version VERSION is disputed at known point POINT (null = believed now): a CONFLICTS_WITH edge into it
// believed then, from a challenger the caller may see ($levels, cypher/fragments/visible.cypher: a conflict is
// shown only when both sides are visible, so is the dispute). Told by its degree first, without walking its
// relationships: most versions are in no conflict, and the degree check took 7-9 % off a point read
// (bench/RESULTS.md).
(COUNT { (VERSION)<-[:CONFLICTS_WITH]-() } > 0
 AND EXISTS { (challenger__:Fact)-[conflict__:CONFLICTS_WITH]->(VERSION)
              WHERE CASE WHEN POINT IS NULL THEN conflict__.known_to IS NULL
                         ELSE conflict__.known_from <= POINT AND (conflict__.known_to IS NULL OR conflict__.known_to > POINT) END
                AND @visible(challenger__, $levels) })
