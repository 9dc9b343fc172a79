// Versions believed now for (subject, predicate) pairs: the input of conflict and range checks. Episodes and the
// other kinds stay apart (DESIGN §9): an episodic row reads only episodes, any other row none.
// clearance: not applied: the conflict rule sees every believed version (a write may not change established
//   knowledge it cannot see); a refusal names a hidden fact by nothing (services/core/clearance.py `named`)
// $tenant  tenant id
// $rows    list of {subject_ids, predicate, episodic (whether the write is an episode)}
// returns: predicate, subject_ids, facts (instants as ISO 8601 text)
UNWIND $rows AS row
// the subject index is the selective one (the planner otherwise scans every fact of the predicate)
OPTIONAL MATCH (f:Fact)
USING INDEX f:Fact(subject_id)
WHERE f.subject_id IN row.subject_ids AND f.predicate = row.predicate AND f.tenant = $tenant
  AND f.known_to IS NULL AND (coalesce(f.kind, 'semantic') = 'episodic') = row.episodic
// instants as ISO text: the driver's pure-Python temporal decoding was the largest client cost of this read
WITH row, collect(f {@fact_fields(f, null), @fact_instants(f), disputed: false}) AS facts
RETURN row.predicate AS predicate, row.subject_ids AS subject_ids, facts
