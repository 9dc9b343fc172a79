"""The unit of work: one write transaction as an object with named fields, opened and finished around a use case.

`Context.write` opens it (`Write.open`: the acting key, the tenant's commit clock and the ledger's head, the write's
known time), hands it to the work (steps take it: `step(w, …)`), then `finish` runs the pre-commit steps that others
registered (the cascade registers itself: services/truth/cascade.py), closes the ledger in one statement and returns
the report cut to the caller's clearance. A retried transaction gets a fresh `Tx` and a fresh `Write`.

Each field has one owner. The repositories' fields (the cipher, the ledger's actor, chain and pending rows, the
deferred flags, a prefetched walk step) are `Tx.state` (graph/core/tx_state.py); the services' are here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from credo.graph.core import ledger
from credo.graph.core.db import SEES_ALL, Tx
from credo.graph.truth.dependencies import Dependent
from credo.schema.cascade import CascadeReport, StaleCause
from credo.schema.facts import Fact
from credo.services.core.clearance import withheld


class UnforeseenStatements(Exception):
    """Raised inside a write whose new versions have statements nobody embedded before it opened; Context.write
    aborts that attempt, embeds them outside any transaction and runs the write again."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(f"{len(texts)} statements were not embedded before the write")
        self.texts = texts


@dataclass(frozen=True)
class Vectors:
    """The embeddings a write may use, computed before its transaction opened (none when no embedder is set)."""

    enabled: bool
    by_text: dict[str, list[float]]


@dataclass
class Changes:
    """What this write stopped believing (fact versions: how and why; summary ids); the pre-commit steps re-check
    what rested on them, before commit."""

    facts: list[tuple[Fact, str, str | None]] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)


# a cascade's flagged dependents whose flags its closing statement writes: (version, cause, path, depth)
Pending = list[tuple[Dependent, StaleCause, tuple[str, ...], int]]


class PreCommit(Protocol):
    """A step every write runs after its work and before commit, seeing every version whatever the caller's
    clearance (truth maintenance is not cut by who asked; its report is, after)."""

    def before_closing(self, w: Write) -> None:
        """Run before the ledger's closing statement (what it defers to that statement travels with it)."""

    def after_closing(self, w: Write) -> None:
        """Run after it (what was deferred is written)."""


_PRE_COMMIT: list[PreCommit] = []


def register(step: PreCommit) -> None:
    """Make `step` run in every write from now on (once, however often it is registered)."""
    if not any(type(s) is type(step) for s in _PRE_COMMIT):
        _PRE_COMMIT.append(step)


def pre_commit_steps() -> tuple[PreCommit, ...]:
    """The registered pre-commit steps, in the order they run."""
    return tuple(_PRE_COMMIT)


@dataclass
class Write:
    """One write transaction as its steps see it: the transaction, the tenant, the write's known time, and what the
    write collects for its pre-commit steps."""

    tx: Tx
    tenant: str
    known: datetime
    vectors: Vectors = field(default_factory=lambda: Vectors(False, {}))  # Context.write, before the tx opened
    changes: Changes = field(default_factory=Changes)  # versions.retire and every step that stops a belief
    # cascade: its flagged dependents, named in its report once the closing statement wrote their flags (that
    # statement returns their statements: the deferred flags' measurement, graph/core/tx_state.py)
    cascade_pending: Pending | None = None
    report: CascadeReport | None = None  # the cascade's report, as the pre-commit steps left it
    policy: Any = None  # the tenant's write policy and the plans drawn from it, read once per write (services/policy)

    @classmethod
    def open(cls, tx: Tx, tenant: str, now: Callable[[], datetime], *, actor: str, vectors: Vectors,
             sealing: bool = False, opening: bool = False, key_store: str | None = None) -> Write:
        """Act as `actor`, take the tenant's commit clock and the ledger's head (`ledger.begin`: its arguments),
        and return the write at its known time."""
        ledger.act_as(tx, actor)
        known = ledger.begin(tx, tenant, now(), sealing=sealing, opening=opening, key_store=key_store)
        return cls(tx, tenant, known, vectors)

    def finish(self) -> CascadeReport | None:
        """Run the pre-commit steps, close the ledger (one statement), and return the report as the caller may read
        it. A write that stopped believing something nobody re-checked is refused: no write skips the cascade."""
        levels, self.tx.levels = self.tx.levels, list(SEES_ALL)
        for step in _PRE_COMMIT:
            step.before_closing(self)
        if self.changes.facts or self.changes.summaries:
            raise RuntimeError("this write stopped believing versions and no pre-commit step re-checked what rested "
                               "on them (services/truth/cascade.py registers the cascade when it is imported)")
        ledger.finish(self.tx, self.tenant, self.known)
        for step in _PRE_COMMIT:
            step.after_closing(self)
        self.tx.levels = levels
        return withheld(self.tx, self.tenant, self.report)
