// The entity at the end of the MERGED_INTO chain from entity VERSION believed at known point POINT (Kay -> K. ->
// Katherine), as `keep`: null when VERSION was merged into none then (the chain's every hop believed then, its end
// merged into nothing). POINT is a variable. The chain is walked only when VERSION's degree says it has a merge
// edge (most entities have none): the degree check took 4-5 % off a point read's server time (bench/RESULTS.md).
OPTIONAL CALL (VERSION, POINT) {
  WITH VERSION, POINT WHERE COUNT { (VERSION)-[:MERGED_INTO]->() } > 0
  MATCH (VERSION)-[merge__:MERGED_INTO*1..]->(keep:Entity)
  WHERE all(m IN merge__ WHERE m.known_from <= POINT AND (m.known_to IS NULL OR m.known_to > POINT))
    AND NOT EXISTS { MATCH (keep)-[next__:MERGED_INTO]->()
                     WHERE next__.known_from <= POINT AND (next__.known_to IS NULL OR next__.known_to > POINT) }
  RETURN keep
}
