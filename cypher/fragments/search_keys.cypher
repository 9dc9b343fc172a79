// The filter keys of fact version VERSION in the `fact_search` vector index (a map to `SET VERSION += ...`; POINT is
// unused, write null), written by every statement that creates or closes a version. The index filters inside its
// search on the properties its `WITH [...]` lists, and a filter compares numbers and strings, not instants: the
// known and valid intervals are kept as integer epoch milliseconds beside the instants, an open end as the sentinel
// 9007199254740991 (2^53 - 1, after every instant Credo stores) and an open start as its negative; sensitivity as a
// rank of schema/search.py SENSITIVITY_ORDER (public 0, internal 1 = unlabelled, confidential 2, secret 3, any other
// label 4: seen by clearance `all` only). The keys are a superset test only: every query that filters on them
// tests the instants and @visible again right after (graph/search.py).
{known_from_key: VERSION.known_from.epochMillis,
 known_to_key: coalesce(VERSION.known_to.epochMillis, 9007199254740991),
 valid_from_key: coalesce(VERSION.valid_from.epochMillis, -9007199254740991),
 valid_to_key: coalesce(VERSION.valid_to.epochMillis, 9007199254740991),
 sensitivity_rank: CASE coalesce(toLower(VERSION.sensitivity), 'internal')
   WHEN 'public' THEN 0 WHEN 'internal' THEN 1 WHEN 'confidential' THEN 2 WHEN 'secret' THEN 3 ELSE 4 END}
