// Whether version VERSION may be served to a caller cleared for the sensitivity labels POINT (a read's $levels,
// which graph/core/db.py `Tx.rows` supplies from the caller's clearance: schema/search.py `query_levels`). The one
// clearance rule of every read, write and forget: '*' (clearance all) sees every label, unknown ones included; a
// version without a label counts as 'internal' (schema/search.py UNLABELLED); labels compare in lower case. A
// caller cleared for all pays one list test per row and no property read (the OR stops at its first operand).
('*' IN POINT OR coalesce(toLower(VERSION.sensitivity), 'internal') IN POINT)
