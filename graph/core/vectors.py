"""Lists as driver parameters: a list whose `repr` is short.

The neo4j 6.1 driver formats every `run()`'s parameters for its debug log eagerly
(`" ".join(map(repr, fields))` in `neo4j/_sync/io/_bolt5.py`, whether or not debug logging is on), which cost
≈0.4–0.8 s per 1,000 384-d vectors and 10.7 ms per 1,000-row write statement; a `Listed` packs exactly like a list
but reprs in constant time. `Tx.rows` sends every long list parameter as one; a vector nested in a map parameter
(where `Tx.rows` does not look) is made one by `vector`.
"""

from __future__ import annotations

from collections.abc import Iterable


# measured: bench/audit_tricks.py --parts ingest cascade on Neo4j 2026.08.1 (2026-12-03, load 10-13), off/on client
# CPU with the full repr: add_facts of 1,000 facts 80.6 / 73.7 ms (1.09x), a 10,000-dependent end_fact 385 / 349 ms
class Listed(list):
    """A list sent as a Cypher list, with a constant-time `repr` for the driver's debug log line."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<list of {len(self)}>"


Vector = Listed  # a vector of floats is sent the same way


def vector(values: Iterable[float] | None) -> Listed | None:
    """`values` as a Listed (None stays None)."""
    return None if values is None else Listed(values)
