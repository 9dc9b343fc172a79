// The filter keys of fact version VERSION in the `fact_search` vector index, as a map to `SET VERSION += ...` (POINT
// is unused, write null): the Cypher twin of schema/search.py `search_keys`, which Credo's own writes use (computed
// in Python, as a SET in the create statement they cost the bulk write 0.3-0.4x of its floor); for bulk loaders
// that create versions in Cypher (the benchmarks). Known and valid intervals as integer epoch milliseconds (floor),
// an open end as 9007199254740991 (2^53 - 1) and an open start as its negative; sensitivity as a rank of
// schema/search.py SENSITIVITY_ORDER (public 0, internal 1 = unlabelled, confidential 2, secret 3, any other label 4).
// tests/graph/core/test_write_statements.py checks the two agree.
{known_from_key: VERSION.known_from.epochMillis,
 known_to_key: coalesce(VERSION.known_to.epochMillis, 9007199254740991),
 valid_from_key: coalesce(VERSION.valid_from.epochMillis, -9007199254740991),
 valid_to_key: coalesce(VERSION.valid_to.epochMillis, 9007199254740991),
 sensitivity_rank: CASE coalesce(toLower(VERSION.sensitivity), 'internal')
   WHEN 'public' THEN 0 WHEN 'internal' THEN 1 WHEN 'confidential' THEN 2 WHEN 'secret' THEN 3 ELSE 4 END}
