// Create summary versions with their verifying trace: one DERIVED_FROM edge per input version.
// $rows  list of {props (every stored property of the version), trace (list of {kind, ref_id, version_id, hash})}
// returns: created
UNWIND $rows AS row
CREATE (s:Summary)
SET s = row.props
WITH s, row
UNWIND row.trace AS item
CALL (s, item) {
  WITH s, item WHERE item.kind = 'fact'
  MATCH (t:Fact {version_id: item.version_id})
  CREATE (s)-[d:DERIVED_FROM]->(t)
  SET d = item, d.known_from = s.known_from
  RETURN count(d) AS n
  UNION ALL
  WITH s, item WHERE item.kind = 'summary'
  MATCH (t:Summary {version_id: item.version_id})
  CREATE (s)-[d:DERIVED_FROM]->(t)
  SET d = item, d.known_from = s.known_from
  RETURN count(d) AS n
  UNION ALL
  WITH s, item WHERE item.kind = 'source'
  MATCH (t:Source {source_id: item.ref_id})
  CREATE (s)-[d:DERIVED_FROM]->(t)
  SET d = item, d.known_from = s.known_from
  RETURN count(d) AS n
}
RETURN sum(n) AS created
