// Merge one entity into another, reversibly: the loser keeps its node and becomes an alias of the keeper.
// $keep_id   entity that stays canonical
// $other_id  entity merged into it
// $known     known time of the write
// returns: keep_id, aliases
MATCH (k:Entity {entity_id: $keep_id}), (o:Entity {entity_id: $other_id})
CREATE (o)-[:MERGED_INTO {known_from: $known}]->(k)
SET k.aliases = k.aliases + [x IN [o.name] + o.aliases WHERE NOT x IN k.aliases],
    k.aliases_text = reduce(t = '', x IN k.aliases + [o.name] | t + ' ' + x)
RETURN k.entity_id AS keep_id, k.aliases AS aliases
