// The free-text properties of node VERSION (a reason, a cause, a claimed actor, a task label, a ledger detail: which
// ones each label has is the $free_fields map, services/forget_rules.py FREE_TEXT) that contain text POINT, compared
// in lower case; a list property (a state change's cause lines) counts when one of its lines does. Forgetting
// removes them and verify_forgotten reports them, with the same rule.
[k IN coalesce($free_fields[head([l IN labels(VERSION) WHERE l IN keys($free_fields)])], [])
 WHERE (VERSION[k] IS :: STRING AND toLower(VERSION[k]) CONTAINS toLower(POINT))
    OR (VERSION[k] IS :: LIST<STRING NOT NULL> AND any(x IN VERSION[k] WHERE toLower(x) CONTAINS toLower(POINT)))]
