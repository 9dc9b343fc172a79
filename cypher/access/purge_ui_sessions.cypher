// Delete inspector sessions past their absolute end (nothing can use them any more), a bounded batch at a time.
// $now    the current time
// $limit  at most this many per call
// returns: purged (how many were deleted)
MATCH (s:UiSession)
WHERE s.expires_at <= $now
WITH s LIMIT $limit
DETACH DELETE s
RETURN count(*) AS purged
