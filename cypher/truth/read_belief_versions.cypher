// The fact versions the caller may see whose belief began (known_from) or ended (known_to) inside the known window
// ($known_a, $known_b], with the SUPERSEDES edges out of each to versions the caller may see (how it replaced them)
// and whether the caller may see an earlier version of its fact (else it is the fact's first): the belief diff
// classifies them (services/truth/diff_rules.py). Each version is projected as stored (its own state, no flag).
// $tenant       tenant id
// $known_a      the window's start (excluded)
// $known_b      the window's end (included)
// $subject_ids  the ids of the subject entity (its merged family), or null for every subject
// $scope_key    canonical scope text (schema/facts.py scope_key), or null for every scope
// $limit        the most rows to return (the belief diff refuses a window holding more)
// $levels       sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact (the version), supersedes (list of {kind, version_id, fact_id}), earlier
MATCH (f:Fact)
WHERE f.tenant = $tenant
  AND ((f.known_from > $known_a AND f.known_from <= $known_b) OR (f.known_to > $known_a AND f.known_to <= $known_b))
  AND @visible(f, $levels)
  AND ($subject_ids IS NULL OR f.subject_id IN $subject_ids)
  AND ($scope_key IS NULL OR f.scope_key = $scope_key)
RETURN f {.*, embedding: null, disputed: false} AS fact,
       [(f)-[s:SUPERSEDES]->(o:Fact) WHERE @visible(o, $levels)
        | {kind: s.kind, version_id: o.version_id, fact_id: o.fact_id}] AS supersedes,
       EXISTS { MATCH (e:Fact {fact_id: f.fact_id})
                WHERE e.tenant = $tenant AND e.known_from < f.known_from AND @visible(e, $levels) } AS earlier
ORDER BY f.known_from, f.version_id
LIMIT $limit
