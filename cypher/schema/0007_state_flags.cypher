// Issue 9 item 1: state changes are FLAGGED edges to a :StateChange node, not new versions. The index finds a
// write's change node; the data step (graph/migrate_flags.py, run after this file) converts versions written the
// old way (a state-only successor per stale flag, re-verification or reinforcement) into flags.
CREATE INDEX state_change_id IF NOT EXISTS FOR (n:StateChange) ON (n.tenant, n.change_id);
