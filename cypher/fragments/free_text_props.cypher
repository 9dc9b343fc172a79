// The free-text properties of node VERSION (a reason, a cause, a claimed actor, a task label, a ledger detail: which
// ones each label has is the $free_fields map, services/forget/rules.py FREE_TEXT) that contain text POINT, compared
// in lower case; a list property (a state change's cause lines) counts when one of its lines does. Forgetting
// removes them and verify_forgotten reports them, with the same rule. A CASE, not `IS :: STRING AND toLower(...)`:
// Cypher 25 (read_fact_copies.cypher) may evaluate both operands of AND, and toLower of a list fails.
[k IN coalesce($free_fields[head([l IN labels(VERSION) WHERE l IN keys($free_fields)])], [])
 WHERE CASE WHEN VERSION[k] IS :: STRING THEN toLower(VERSION[k]) CONTAINS toLower(POINT)
            WHEN VERSION[k] IS :: LIST<STRING NOT NULL> THEN any(x IN VERSION[k] WHERE toLower(x) CONTAINS toLower(POINT))
            ELSE false END]
