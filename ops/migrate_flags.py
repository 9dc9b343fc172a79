"""Migration 0007's data step: versions written the old way for a state change become state flags.

Before issue 9 a stale flag, a re-verification that held and a reinforcement each closed a version and wrote a
copy in the new state. This step folds every such copy back into the version it replaced, as a FLAGGED edge with
the copy's known interval (graph/core/flags.py), in batches until none is left; a chain (active -> stale -> active)
folds pair by pair, and the flags it wrote get migration 0012's slim shape (ops/migrate_flag_edges.py). Idempotent:
a graph with no such pairs is left as it is.
"""

from __future__ import annotations

from credo.cypher import load
from credo.graph.core.db import Database
from credo.ops.migrate_flag_edges import slim_flag_edges

READ_STATE_SUCCESSORS = load("read_state_successors")
MERGE_STATE_SUCCESSORS = load("merge_state_successors")

# the end reasons the old code wrote for a state change that kept what the claim says
OLD_REASONS = ["stale: lost all support", "re-verified: holds", "reinforced by a restatement"]
# what a claim says: equal on both versions of a state-only pair
CONTENT = ["statement", "quote", "subject_id", "subject_name", "predicate", "object_type", "object_value",
           "object_id", "object_name", "scope_key", "kind", "evidence", "epistemic", "confidence", "sensitivity",
           "valid_from", "valid_to", "valid_from_precision", "valid_to_precision", "bounded_by", "lapse_reason"]


def convert_state_versions(db: Database, *, batch: int = 1000) -> int:
    """Fold every state-only successor version into a flag on its predecessor; returns how many were folded."""
    folded = 0
    while True:
        pairs = db.query(READ_STATE_SUCCESSORS, reasons=OLD_REASONS, content=CONTENT, limit=batch)
        if not pairs:
            slim_flag_edges(db)  # the flags this step wrote, in the shape every reader reads
            return folded
        # a chain (a -> b -> c) folds link by link, oldest first: a pair touching a version another pair of this
        # round touched waits for the next round
        seen: set[str] = set()
        rows = []
        for p in pairs:
            if p["a_id"] not in seen and p["b_id"] not in seen:
                rows.append({"a_id": p["a_id"], "b_id": p["b_id"]})
            seen |= {p["a_id"], p["b_id"]}
        db.query(MERGE_STATE_SUCCESSORS, write=True, rows=rows)
        folded += len(rows)
