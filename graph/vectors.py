"""Vectors as driver parameters: a list whose `repr` is short.

The neo4j 6.1 driver formats every `run()`'s parameters for its debug log eagerly
(`" ".join(map(repr, fields))` in `neo4j/_sync/io/_bolt5.py`, whether or not debug logging is on), which cost
≈0.4–0.8 s per 1,000 384-d vectors; a `Vector` packs exactly like a list but reprs in constant time.
"""

from __future__ import annotations

from collections.abc import Iterable


class Vector(list):
    """A list of floats sent as a Cypher list, with a constant-time `repr` for the driver's debug log line."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<vector of {len(self)} floats>"


def vector(values: Iterable[float] | None) -> Vector | None:
    """`values` as a Vector (None stays None)."""
    return None if values is None else Vector(values)
