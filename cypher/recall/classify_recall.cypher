// Re-classify one served recall (neutral -> useful/harmful, or a later verdict) and store the memory's new
// net utility: the same row changes, none is added.
// $tenant      tenant id
// $receipt_id  the read receipt
// $fact_id     the fact it served
// $outcome     the new outcome (neutral, useful or harmful)
// $utility     the memory's net utility after the re-classification
// $known       known time of the write
// returns: outcome, utility
MATCH (r:Recall {tenant: $tenant, receipt_id: $receipt_id, fact_id: $fact_id})
MATCH (u:Usage {tenant: $tenant, fact_id: $fact_id})
SET r.outcome = $outcome, r.classified_at = $known, u.utility = $utility
RETURN r.outcome AS outcome, u.utility AS utility
