// Every version of a fact the caller may see, oldest belief first (then by valid_from, undated last, then by version
// id: a unique order), from the one after the page's key (a page cut in the query by its key).
// $tenant        tenant id
// $fact_id       fact id
// $known_at      disputed is reported as believed at this known time (far future = now)
// $after_known   known_from of the version the page starts after (null: from the first)
// $after_valid   valid_from of that version (null: it is undated, or the page starts at the first)
// $after_id      version id of that version (null: from the first)
// $limit         the most versions to return (a page and one more, to know whether another follows; ALL for all)
// $levels        sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: (plain values only) fact
MATCH (f:Fact {fact_id: $fact_id})
WHERE f.tenant = $tenant AND @visible(f, $levels)
  AND ($after_id IS NULL OR f.known_from > $after_known
       OR (f.known_from = $after_known
           AND (($after_valid IS NOT NULL AND (f.valid_from > $after_valid OR f.valid_from IS NULL))
                OR (coalesce(f.valid_from = $after_valid, f.valid_from IS NULL AND $after_valid IS NULL)
                    AND f.version_id > $after_id))))
RETURN f {@fact_fields(f, $known_at), disputed: @disputed_at(f, $known_at)} AS fact
ORDER BY f.known_from, f.valid_from, f.version_id
LIMIT $limit
