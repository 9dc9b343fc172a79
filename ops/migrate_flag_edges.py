"""Migration 0012's data step: FLAGGED edges written before issue 9's fourth pass get the slim shape.

Before, every flag edge carried its whole cause text (a cascade's: the root's line and the dependent's path), the
actor, the reason and the state it left; now the edge holds its state, known interval and cause reference (an index
into its :StateChange's `causes`, and for a cascade its `path`), and the node what the write's flags share
(graph/core/flags.py). Each old cause text is split into its line and path as the cascade wrote it ("<line>; path a -> b"),
so every read at every known time gives the same stale cause as before. Idempotent: converted edges are not read.
"""

from __future__ import annotations

import re
from typing import Any

from credo.cypher import load
from credo.graph.core.db import Database
from credo.graph.core.flags import cause_lines

READ_OLD_FLAG_EDGES = load("read_old_flag_edges")
SLIM_FLAG_EDGES = load("slim_flag_edges")

_PATH = re.compile(r"^(?P<line>.*); path (?P<path>[\w-]+(?: -> [\w-]+)*)$", re.DOTALL)


def split_cause(text: str) -> tuple[str, list[str] | None]:
    """A cascade's old cause text as (line, path); any other cause as (text, None)."""
    found = _PATH.match(text)
    if found is None:
        return text, None
    return found["line"], found["path"].split(" -> ")


def _converted(node: dict[str, Any]) -> dict[str, Any]:
    """One state change's cause lines and roots, and its edges' cause index (none for the first line) and path."""
    # the lines indexed as graph/core/flags.py indexes a new write's
    split = [split_cause(e["cause"]) if isinstance(e["cause"], str) else (None, None) for e in node["edges"]]
    causes, roots, indexes = cause_lines([(line, path[0] if path else None) for line, path in split])
    edges = [{"edge": e["edge"], "cause": index, "path": " -> ".join(path) if path else None,  # as text (0024)
              "actor": e["actor"] if e["actor"] != node["actor"] else None,
              "reason": e["reason"] if e["reason"] != node["reason"] else None}
             for e, (_line, path), index in zip(node["edges"], split, indexes)]
    return {"node": node["node"], "causes": causes, "roots": roots, "edges": edges}


def slim_flag_edges(db: Database, *, batch: int = 200, edges_per_write: int = 20_000) -> int:
    """Convert every old-shape flag edge, state change by state change, about `edges_per_write` edges per write
    (a large cascade's state change alone may hold 10,000); returns how many edges."""
    converted = 0
    while True:
        nodes = db.query(READ_OLD_FLAG_EDGES, limit=batch)
        if not nodes:
            return converted
        chunk: list[dict[str, Any]] = []
        for node in [_converted(n) for n in nodes]:
            chunk.append(node)
            if sum(len(n["edges"]) for n in chunk) >= edges_per_write:
                converted += db.query(SLIM_FLAG_EDGES, write=True, nodes=chunk)[0]["edges"]
                chunk = []
        if chunk:
            converted += db.query(SLIM_FLAG_EDGES, write=True, nodes=chunk)[0]["edges"]
