// Link newer versions or successors to what they supersede.
// $known  known time of the write
// $rows   list of {new_id, old_id, kind, at}
// returns: linked
UNWIND $rows AS row
MATCH (n:Fact {version_id: row.new_id})
MATCH (o:Fact {version_id: row.old_id})
CREATE (n)-[:SUPERSEDES {kind: row.kind, at: row.at, known_from: $known}]->(o)
RETURN count(*) AS linked
