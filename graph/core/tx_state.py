"""What a transaction carries for the repositories, as named fields of one object (`Tx.state`), never attributes
hung on the driver's transaction: the cipher that opens and seals content, and for a write the ledger's actor, chain
and pending rows, the flags left to its closing statement and a walk step already taken.

The unit of work (services/core/unit_of_work.py) and `Context.bind` set them; a retried transaction gets a fresh
`Tx`, so a fresh state. What only the services read (the write's vectors, its change log, the cascade's pending
report) is the unit of work's own, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

SYSTEM_ACTOR = "system"


class Sealer(Protocol):
    """The crypto-erasure cipher as the repositories use it (services/core/crypto.py `Cipher`)."""

    def open_tree(self, tenant: str, value: Any) -> Any: ...

    def seal_fact(self, tenant: str, props: dict[str, Any]) -> dict[str, Any]: ...

    def seal_source(self, tenant: str, row: dict[str, Any]) -> dict[str, Any]: ...

    def seal_edge_quote(self, tenant: str, version_id: str, source_id: str, quote: str | None) -> Any: ...

    def seal_question(self, tenant: str, receipt_id: str, question: str | None) -> str | None: ...

    def seal_recipe(self, tenant: str, row: dict[str, Any]) -> dict[str, Any]: ...

    def seal_verdict(self, tenant: str, row: dict[str, Any], subject_id: str) -> dict[str, Any]: ...


class ClosingFlags(Protocol):
    """Fact flags left to the write's closing statement (graph/core/flags.py `Deferred`)."""

    change: dict[str, Any]
    params: list[dict[str, Any]]
    statements: dict[str, str]
    done: bool

    def written(self, row: dict[str, Any] | None) -> None: ...


@dataclass(frozen=True)
class WalkStep:
    """A cascade walk step a closing statement already took from `fact_ids`, valid while no other statement ran
    (`statements`: `Tx.statements` after it); `row` is what `read_dependents_level` would return."""

    fact_ids: list[str]
    statements: int
    row: dict[str, Any]


@dataclass
class TxState:
    """The fields of one transaction the repositories read: one owner each (who sets it is named beside it)."""

    cipher: Sealer | None = None  # Context.bind, crypto-erasure mode; `Tx.rows` opens every row with it
    tenant: str | None = None  # Context.bind: whose keys the cipher seals and opens with
    actor: str = SYSTEM_ACTOR  # ledger.act_as: who every event of the write records as its actor
    chain: tuple[int, str] = (0, "")  # ledger.begin, ledger.finish: the ledger's (seq, head) as this write left it
    audit: list[dict[str, Any]] = field(default_factory=list)  # ledger.audit: events `ledger.finish` appends
    # flags.defer: a cascade's flags written by `ledger.finish`'s closing statement, one round trip fewer per
    # cascade (bench/RESULTS.md, "Issue 9 cascade targets, second pass": 0.98 s for 9,200 flags, 2.4 s before)
    deferred_flags: ClosingFlags | None = None
    # dependencies.prefetch: the cascade's first walk step taken by a retraction's closing statement (bench/RESULTS.md,
    # "Issue 9 cascade targets, third pass": retract_fact's round trips 5 -> 4)
    walk_step: WalkStep | None = None
