// A tenant's forget jobs still running (oldest first), or the one with $job_id.
// $tenant  tenant id
// $job_id  a job id, or null for every running job
// returns: job
MATCH (j:ForgetJob)
WHERE j.tenant = $tenant AND (($job_id IS NULL AND j.state = 'running') OR j.job_id = $job_id)
RETURN j {.*} AS job
ORDER BY j.started_at
