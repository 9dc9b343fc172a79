// Store (or replace) the probe of a forget, held until purge so that verify_forgotten from any handle runs the
// full-text and vector probes: its ids and tombstone, and its content only as a sealed copy whose key lives outside
// the graph (services/forget/seal.py), never in clear. No index covers it.
// $tenant  tenant id
// $props   {target_id, kind, ids, facts, entities, keys, forgotten_at, forgotten_by, forgotten_on_behalf_of,
//          forgotten_reason, names (how many of the sealed texts are names, first), sealed,
//          seal_key (absent without a key store)}
// returns: target_id
MERGE (p:ForgetProbe {tenant: $tenant, target_id: $props.target_id})
SET p = $props
SET p.tenant = $tenant
RETURN p.target_id AS target_id
