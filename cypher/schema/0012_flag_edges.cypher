// Migration 0012 (issue 9): a FLAGGED edge holds only what a read at a known point needs (state, known interval,
// the cause reference: an index into its :StateChange's `causes` lines, and a cascade's `path`); what the flags of
// one write share (actor, reason, the cause lines, their roots) is on the :StateChange node. No schema statement:
// the data step (graph/migrate_flag_edges.py) converts the edges written before (their whole cause text, actor,
// reason and previous state on every edge), state change by state change. Idempotent.
