// Store (or replace) the probe of a forget: the content captured before removal, held until purge so that
// verify_forgotten from any handle runs the full-text and vector probes. No index covers it.
// $tenant  tenant id
// $props   {target_id, kind, ids, facts, texts, vectors (embeddings, flattened), dims, stored_at}
// returns: target_id
MERGE (p:ForgetProbe {tenant: $tenant, target_id: $props.target_id})
SET p += $props
RETURN p.target_id AS target_id
