// Migration 0011's data step: every fact version of a tenant without a ready full-text index of its own joins the
// global `fact_text` index (label :FactText), in batches of their own transactions.
// returns: labelled
MATCH (f:Fact)
WHERE NOT f:FactText
  AND NOT EXISTS { MATCH (p:SearchPartition) WHERE p.tenant = f.tenant AND p.ready AND p.text_index IS NOT NULL }
CALL (f) { SET f:FactText } IN TRANSACTIONS OF 10000 ROWS
RETURN count(f) AS labelled
