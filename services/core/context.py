"""What every use case needs: the database, the tenant, the clock and the embedder."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

from credo.graph.core import ledger
from credo.graph.core.db import Database, Tx
from credo.schema.api_keys import ALL_SCOPES
from credo.schema.errors import Forbidden
from credo.schema.search import query_levels
from credo.services.core.governance import FULL, Governance
from credo.services.core.settle import SettledPoints, settle
from credo.services.core.unit_of_work import UnforeseenStatements, Vectors, Write

if TYPE_CHECKING:
    from credo.schema.cascade import CascadeReport
    from credo.services.core.crypto import Cipher
    from credo.services.adapters.key_stores import KeyStore
    from credo.services.adapters.embeddings import Embedder

T = TypeVar("T")
WRITING_SCOPES = frozenset({"write", "curate", "forget", "admin"})


def with_report(result: T, report: "CascadeReport | None") -> T:
    """Attach a cascade report to the models a write returns (a Fact, a Summary, or a list of them)."""
    if report is None:
        return result

    def attach(item: Any) -> Any:
        fields = getattr(type(item), "model_fields", {})
        return item.model_copy(update={"cascade": report}) if "cascade" in fields else item

    if isinstance(result, list):
        return [attach(item) for item in result]  # type: ignore[return-value]
    return attach(result)


def system_clock() -> datetime:
    """Wall-clock UTC now."""
    return datetime.now(timezone.utc)


@dataclass
class Context:
    """A store's bindings; `clock` is injectable by tests only (never through the public write API)."""

    db: Database
    tenant: str
    clock: Callable[[], datetime] = system_clock
    embedder: "Embedder | None" = None
    clearance: str = "all"  # the caller's clearance vs a version's sensitivity (schema/search.py); "all" sees all
    predicate_cache: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    governance: Governance = FULL  # the ablation harness alone turns parts off (services/core/governance.py)
    actor: str = ledger.SYSTEM_ACTOR  # who the ledger records for events that do not name their own actor
    cipher: "Cipher | None" = None  # crypto-erasure mode (services/core/crypto.py); None = content stored as given
    scopes: frozenset[str] = ALL_SCOPES  # what the caller's key may do (schema/api_keys.py); checked per operation
    keys: "KeyStore | None" = None  # the key store outside the graph (crypto keys; forget probes' keys), if any
    verifier: Any = None  # the configured semantic verifier (credo/bootstrap.py `verifier_for`); None: not verified
    settled: SettledPoints = field(default_factory=SettledPoints)  # the process's settled points (services/core/settle.py)

    def bind(self, tx: Tx) -> Tx:
        """Give a transaction this store's clearance (the `$levels` of every query declaring it: what the caller may
        be served, written, revised or forgotten) and cipher (every row it returns is opened, every seal uses it)."""
        tx.levels = query_levels(self.clearance)
        if self.cipher is not None:
            tx.state.cipher = self.cipher
            tx.state.tenant = self.tenant
        return tx

    def now(self) -> datetime:
        """The store's notion of now (UTC)."""
        return self.clock()

    def known_point(self, value: Any) -> datetime:
        """A known-time read point. A point not yet past reads what is believed now; only past points are fixed, so
        a read at one first waits for any write still committing at or before it (services/core/settle.py)."""
        from credo.schema.time import parse_instant

        point = parse_instant(value, "known_at")
        settle(self.db, self.settled, self.tenant, point, self.now())
        return point

    def embed(self, texts: Iterable[str]) -> dict[str, list[float]]:
        """Vectors of the distinct non-empty texts (nothing without an embedder); never call it inside a write."""
        unique = [t for t in dict.fromkeys(texts) if isinstance(t, str) and t.strip()]
        if self.embedder is None or not unique:
            return {}
        return dict(zip(unique, self.embedder.embed(unique)))

    def write(self, work: Callable[[Write], T], *, embed: Iterable[str] = ()) -> T:
        """Run `work(w)` in one managed transaction, `w` the unit of work (services/core/unit_of_work.py): it first
        takes the tenant's commit clock, and before commit runs the registered pre-commit steps (the cascade) and
        closes the ledger.

        `embed` names the statements the write is expected to create; they are embedded before the transaction
        opens. A new version whose statement was not foreseen aborts the attempt (nothing is written), its text
        is embedded outside the transaction and the write runs again, so every new version gets its vector.
        """
        if not self.scopes & WRITING_SCOPES:  # the Store checks each operation's scope; this holds below it too
            raise Forbidden("scope", "this key may only read; a write needs a write, curate, forget or admin scope")
        plan = Vectors(self.embedder is not None, self.embed(embed))
        sealing = self.cipher is not None and self.cipher.sealing
        store_id = self.cipher.keys.store_id() if self.cipher is not None else None  # file I/O: before the transaction

        def run(tx: Tx) -> T:
            self.bind(tx)
            # now is read after the clock lock is held, so no commit can land at a known time a reader already used
            w = Write.open(tx, self.tenant, self.now, actor=self.actor, vectors=plan, sealing=sealing,
                           opening=self.cipher is not None, key_store=store_id)
            result = work(w)
            # every write that stopped believing something re-checks what rested on it, before commit; truth
            # maintenance sees every version whatever the caller's clearance, and its report is then cut to it
            return with_report(result, w.finish())

        for _attempt in range(3):
            try:
                done = self.db.write(run)
                break
            except UnforeseenStatements as missing:
                plan.by_text.update(self.embed(missing.texts))
        else:
            done = self.db.write(run)
        return done

    def read(self, work: Callable[[Tx], T]) -> T:
        """Run `work(tx)` in a read transaction bound to this store's clearance and cipher."""
        return self.db.read(lambda tx: work(self.bind(tx)))
