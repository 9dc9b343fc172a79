// Undo a merge: the merged entity is canonical again and its names leave the keeper's aliases.
// $other_id  entity that was merged
// $known     known time of the write
// returns: keep_id, other_id
MATCH (o:Entity {entity_id: $other_id})-[m:MERGED_INTO]->(k:Entity)
WHERE m.known_to IS NULL
SET m.known_to = $known,
    k.aliases = [x IN k.aliases WHERE NOT x IN [o.name] + o.aliases],
    k.aliases_text = reduce(t = '', x IN [x IN k.aliases WHERE NOT x IN [o.name] + o.aliases] | t + ' ' + x)
RETURN k.entity_id AS keep_id, o.entity_id AS other_id
