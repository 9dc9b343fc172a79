// Fact versions by their version ids (the versions a bulk write reinforces), disputed as believed now; only those the
// caller may see.
// $tenant       tenant id
// $version_ids  version ids
// $levels   sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact (instants as ISO 8601 text), one row per version found
UNWIND $version_ids AS version_id
MATCH (f:Fact {version_id: version_id})
WHERE f.tenant = $tenant AND @visible(f, $levels)
RETURN @fact_at(f, null) AS fact
