// Read one served recall of the utility ledger and its memory's net utility.
// $tenant      tenant id
// $receipt_id  the read receipt
// $fact_id     the fact it served
// returns: outcome, utility (null row when the receipt did not serve that fact in this tenant)
MATCH (r:Recall {tenant: $tenant, receipt_id: $receipt_id, fact_id: $fact_id})
MATCH (u:Usage {tenant: $tenant, fact_id: $fact_id})
RETURN r.outcome AS outcome, u.utility AS utility
