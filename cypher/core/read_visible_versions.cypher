// Which of some fact and summary versions the caller may see: what a write's answer (its cascade report) may name
// with its content, and which restated version a caller's write may join.
// $tenant               tenant id
// $fact_version_ids     fact version ids
// $summary_version_ids  summary version ids
// $levels               sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: version_id (one row per visible version)
CALL () {
  UNWIND $fact_version_ids AS id
  MATCH (f:Fact {version_id: id})
  WHERE f.tenant = $tenant AND @visible(f, $levels)
  RETURN f.version_id AS version_id
  UNION
  UNWIND $summary_version_ids AS id
  MATCH (s:Summary {version_id: id})
  WHERE s.tenant = $tenant AND @visible_summary(s, $levels)
  RETURN s.version_id AS version_id
}
RETURN version_id
