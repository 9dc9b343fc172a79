// Count served recalls in the utility ledger: one :Recall (neutral) per (receipt, fact), created once, and the
// memory's :Usage (created in tier working since the fact's first known time) counts one more use, its last use
// and, on a new UTC day, one more active day. A receipt already counted for a fact changes nothing (idempotent).
// $tenant      tenant id
// $receipt_id  the read receipt that served the facts
// $fact_ids    fact ids the receipt served
// $known       known time of the write (the recall's time)
// $day         the UTC date of $known as YYYY-MM-DD text
// returns: counted (recalls newly recorded)
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {tenant: $tenant, fact_id: fact_id})
WITH fact_id, min(f.known_from) AS created
OPTIONAL MATCH (seen:Recall {tenant: $tenant, receipt_id: $receipt_id, fact_id: fact_id})
WITH fact_id, created, seen WHERE seen IS NULL
CREATE (:Recall {tenant: $tenant, receipt_id: $receipt_id, fact_id: fact_id, outcome: 'neutral', at: $known})
MERGE (u:Usage {tenant: $tenant, fact_id: fact_id})
  ON CREATE SET u.tier = 'working', u.tier_since = created, u.uses = 0, u.active_days = 0, u.utility = 0.0
SET u.uses = u.uses + 1, u.last_used = $known,
    u.active_days = u.active_days + CASE WHEN u.last_active_day = $day THEN 0 ELSE 1 END, u.last_active_day = $day
RETURN count(*) AS counted
