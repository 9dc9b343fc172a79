// What a new semantic claim may be a near-duplicate of (dedup at write): for each (subject, predicate, scope) row,
// the served semantic versions with a text object believed now, with the statement, aliases and embedding the
// dedup rule compares.
// $tenant  tenant id
// $states  the served states
// $rows    list of {subject_ids, predicate, scope_key}
// $levels  sensitivity labels the writer may see: a claim never joins one above its clearance (it is written
//          as its own fact instead)
// returns: at (the row's index), found (list of {version_id, statement, aliases, embedding})
UNWIND range(0, size($rows) - 1) AS at
WITH at, $rows[at] AS row
MATCH (f:Fact)
USING INDEX f:Fact(subject_id)
WHERE f.subject_id IN row.subject_ids AND f.predicate = row.predicate AND f.tenant = $tenant
  AND f.known_to IS NULL AND f.state IN $states AND f.kind = 'semantic' AND f.object_type = 'string'
  AND f.scope_key = row.scope_key AND @visible(f, $levels)
RETURN at, collect({version_id: f.version_id, statement: f.statement, aliases: coalesce(f.aliases, []),
                    embedding: f.embedding}) AS found
