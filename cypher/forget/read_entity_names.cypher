// The names and aliases of entities about to be forgotten, so their copies (summaries, receipts' questions, ledger
// details) are scrubbed before the names go.
// clearance: not applied: forgetting reaches every name its targets leave behind, whatever the caller's
//   clearance; the targets themselves were checked first (graph/core/clearance.py)
// $tenant      tenant id
// $entity_ids  entity ids
// returns: names (every name and alias, not yet forgotten)
MATCH (e:Entity)
WHERE e.entity_id IN $entity_ids AND e.tenant = $tenant AND e.forgotten_at IS NULL
UNWIND [e.name] + coalesce(e.aliases, []) AS name
RETURN collect(DISTINCT name) AS names
