// The slim input of the conflict rule for a bulk write: the served versions believed now for (subject, predicate)
// pairs, as tuples of the fields the rule reads (no other property travels). A row naming an object asks only for
// versions with that object (a multi-valued predicate needs only the duplicate check).
// $tenant  tenant id
// $states  the served states
// $rows    list of {subject_ids, predicate, object_id (null for a literal), object_type, object_value}, the last
//          three null to ask for every object (a single-valued predicate)
// returns: at (the row's index), held (list of [fact_id, version_id, object_type, object_value, object_id,
//          scope_key, state, valid_from, valid_from_precision, valid_to]; instants as ISO 8601 text)
UNWIND range(0, size($rows) - 1) AS at
WITH at, $rows[at] AS row
// the subject index is the selective one (the planner otherwise scans every fact of the predicate)
MATCH (f:Fact)
USING INDEX f:Fact(subject_id)
WHERE f.subject_id IN row.subject_ids AND f.predicate = row.predicate AND f.tenant = $tenant
  AND f.known_to IS NULL AND @state_at(f, null) IN $states
  AND (row.object_type IS NULL
       OR (row.object_id IS NOT NULL AND f.object_id = row.object_id)
       OR (row.object_id IS NULL AND f.object_type = row.object_type AND f.object_value = row.object_value))
RETURN at, collect([f.fact_id, f.version_id, f.object_type, f.object_value, f.object_id, f.scope_key, @state_at(f, null),
                    toString(f.valid_from), f.valid_from_precision, toString(f.valid_to)]) AS held
