// Create or update a tenant's :ForgetJob (its phase and cursor travel in the same transaction as the batch they count).
// $tenant  tenant id
// $props   {job_id, scope, target, reason, actor, state, phase, done, total, batch_size, started_at, updated_at}
// returns: job_id
MERGE (j:ForgetJob {job_id: $props.job_id})
SET j += $props, j.tenant = $tenant
RETURN j.job_id AS job_id
