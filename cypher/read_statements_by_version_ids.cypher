// The statements of the given fact versions (the cascade's report names what it flagged; the walk returns none).
// $tenant       tenant id
// $version_ids  version ids
// returns: one row per version found: version_id, statement
UNWIND $version_ids AS id
MATCH (f:Fact {version_id: id})
WHERE f.tenant = $tenant
RETURN f.version_id AS version_id, f.statement AS statement
