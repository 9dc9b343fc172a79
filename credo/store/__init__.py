"""The store handle: one tenant's view of a Credo graph, with the public Python API."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from credo.graph.core.db import Database
from credo.schema import commands as c
from credo.schema.api_keys import Principal
from credo.schema.commands import Command, build, fields_of
from credo.schema.entities import Entity
from credo.schema.errors import InvalidInput
from credo.schema.facts import AsOf, Cardinality, Conflict, Fact, FactCreate, PathStep, PredicateDef, Relation, Window
from credo.schema.pages import After
from credo.schema.search import CLEARANCE_ALL
from credo.services.facts import conflicts as conflict_service
from credo.services.facts import entities as entity_service
from credo.services.facts import predicates as predicate_service
from credo.services.facts import read as read_facts
from credo.services.facts import record as record_fact
from credo.services.facts import revise as revise_fact
from credo.services.facts import who
from credo.services.core.context import Context, system_clock
from credo.services.core.crypto import Cipher, SealedTenants, cipher_for
from credo.services.core.settle import SettledPoints
from credo.services.adapters.key_stores import KeyStore
from credo.services.adapters.embeddings import Embedder
from credo.store import forget as forget_store
from credo.store import gate as gate_store
from credo.store import imports as imports_store
from credo.store import inspector as inspector_store
from credo.store import ledger as ledger_store
from credo.store import lifecycle as lifecycle_store
from credo.store import preferences as preferences_store
from credo.store import procedural as procedural_store
from credo.store import policy as policy_store
from credo.store import episodic as episodic_store
from credo.store import consent as consent_store
from credo.store import recall as recall_store
from credo.store import search as search_store
from credo.store import truth as truth_store
from credo.store import verify as verify_store
from credo.store.truth import CascadeMixin
from credo.store.forget import ForgetMixin
from credo.store.imports import ImportMixin
from credo.store.inspector import InspectorMixin
from credo.store.ledger import LedgerMixin
from credo.store.lifecycle import LifecycleMixin
from credo.store.gate import ProvenanceMixin
from credo.store.preferences import PreferencesMixin
from credo.store.procedural import ProceduralMixin
from credo.store.policy import PolicyMixin
from credo.store.episodic import EpisodicMixin
from credo.store.consent import ConsentMixin
from credo.store.recall import RecallMixin
from credo.store.search import SearchMixin
from credo.store.verify import VerifyMixin


class Store(ProvenanceMixin, CascadeMixin, LifecycleMixin, SearchMixin, RecallMixin, ForgetMixin, LedgerMixin,
            InspectorMixin, ImportMixin, ProceduralMixin, VerifyMixin, PolicyMixin,
            PreferencesMixin, EpisodicMixin, ConsentMixin):
    """A tenant-bound handle on a Credo graph. Build it with `credo.connect()`; close it when done."""

    def __init__(
        self, db: Database, *, tenant: str | None = None, principal: Principal | None = None,
        embedder: Embedder | None = None, _clock: Callable[[], datetime] | None = None, _owns_db: bool = True,
        clearance: str | None = None, actor: str | None = None, cipher: Cipher | None = None,
        keys: KeyStore | None = None, crypto: str | None = None, _sealed: SealedTenants | None = None,
        verifier: Any = None, _settled: SettledPoints | None = None,
    ) -> None:
        if principal is None:
            if not tenant:
                raise InvalidInput("tenant", "a store needs a tenant (or a principal)")
            principal = Principal(tenant=tenant, clearance=clearance or CLEARANCE_ALL,
                                  **({"actor": actor} if actor else {}))
        elif tenant is not None and tenant != principal.tenant:
            raise InvalidInput("tenant", "the tenant comes from the principal")
        self.principal = principal
        self.tenant = principal.tenant
        self._keys = keys  # the crypto-erasure key store (docs/crypto-erasure.md), if this handle's process has one
        self._crypto = crypto  # the process's mode (None: this handle was given its cipher, or none, directly)
        self._sealed = _sealed if _sealed is not None else SealedTenants(db)
        if crypto is not None and cipher is None:
            cipher = cipher_for(crypto, keys, principal.tenant)
            if cipher is None:  # mode off: refused for a tenant whose content is sealed (ConfigError)
                self._sealed.refuse_if_sealed(principal.tenant)
        if cipher is not None:  # a tenant sealed with another key store is refused too (ConfigError)
            self._sealed.refuse_if_foreign(principal.tenant, cipher.keys)
        self._db = db
        self._owns_db = _owns_db
        self._ctx = Context(db=db, tenant=principal.tenant, clock=_clock or system_clock, embedder=embedder,
                            clearance=principal.clearance, actor=principal.actor, scopes=principal.scopes,
                            cipher=cipher, keys=keys if keys is not None else (cipher.keys if cipher is not None else None),
                            verifier=verifier, settled=_settled if _settled is not None else SettledPoints())

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the driver (when this handle owns it)."""
        if self._owns_db:
            self._db.close()

    def for_principal(self, principal: Principal) -> "Store":
        """The handle of one caller, sharing this connection, embedder, key store and crypto mode: its tenant,
        clearance (what its reads may see), scopes (what it may call) and actor (who the ledger records)."""
        shared = self._ctx.cipher
        mode = self._crypto if shared is None else None  # a shared cipher serves every tenant (calls name theirs)
        if shared is None and mode is None:
            mode = "off"  # a handle built without a mode: still refuses a tenant sealed in this key store
        return Store(self._db, principal=principal, embedder=self._ctx.embedder, _clock=self._ctx.clock,
                     _owns_db=False, keys=self._keys, cipher=shared, crypto=mode, _sealed=self._sealed,
                     verifier=self._ctx.verifier, _settled=self._ctx.settled)

    def authorize(self, operation: str, fields: dict[str, Any] | None = None) -> None:
        """Refuse (Forbidden, 403) an operation of the registry this handle's principal has no scope for — the check
        every operation's method makes itself; surfaces call it first to refuse before reading a request's body."""
        from credo.schema.operations import BY_NAME

        op = BY_NAME[operation]
        self.principal.require(op.scope_for(fields or {}), op.name)

    def for_tenant(self, tenant: str, *, clearance: str = CLEARANCE_ALL, actor: str | None = None) -> "Store":
        """Another tenant's handle sharing this connection (a library convenience: every scope): reads see what
        `clearance` allows (default all); `actor` is who its writes are recorded for (default: this process's)."""
        return self.for_principal(Principal(tenant=tenant, clearance=clearance,
                                            actor=actor or self.principal.actor))

    def handle(self, operation: str, cmd: Command, **extras: Any) -> Any:
        """Run `operation` on a command a surface has already validated (REST, MCP): the operation's scope is checked,
        then the command goes to its handler as it is, never validated again."""
        from credo.schema.operations import BY_NAME

        op = BY_NAME[operation]
        if not isinstance(cmd, op.command):
            raise InvalidInput(operation, f"takes a {op.command.__name__}, got {type(cmd).__name__}")
        self.principal.require(op.scope_for(fields_of(cmd)), op.name)
        return HANDLERS[operation](self._ctx, cmd, **extras)

    # -- recording -----------------------------------------------------------------------------
    def add_fact(
        self, subject: str, predicate: str, object: Any, *, valid_from: Any = None, valid_to: Any = None,
        scope: dict[str, str] | None = None, kind: str = "semantic", statement: str | None = None,
        confidence: float | None = None, sensitivity: str | None = None, depends_on: Sequence[str] | None = None,
        object_is_entity: bool | None = None, operational: bool = False,
    ) -> Fact:
        """Record a claim; a conflicting one is kept as `conflicted`, an earlier open-ended one is bounded.

        `depends_on` lists premise fact ids: one justification (ANDed), drawn in the same transaction. An
        `operational` rule (it can change production) stays a hypothesis until a direct source is cited under it."""
        cmd = build(c.AddFact, subject=subject, predicate=predicate, object=object, valid_from=valid_from,
                    valid_to=valid_to, scope=scope, kind=kind, statement=statement, confidence=confidence,
                    sensitivity=sensitivity, depends_on=depends_on, object_is_entity=object_is_entity,
                    operational=operational)
        return record_fact.add_fact(self._ctx, cmd)

    def add_facts(self, rows: Sequence[dict[str, Any] | FactCreate]) -> list[Fact]:
        """Record many claims in one transaction (each row takes add_fact's fields, `depends_on` included)."""
        if isinstance(rows, str | bytes | dict) or not isinstance(rows, Sequence):
            raise InvalidInput("rows", "must be a list of facts (mappings of add_fact's fields)")
        for index, r in enumerate(rows):
            if not isinstance(r, dict | FactCreate):
                raise InvalidInput("rows", f"row {index} must be a mapping of add_fact's fields, got {type(r).__name__}")
        dicts = [dict(r) if isinstance(r, dict) else r for r in rows]
        premises = [r.pop("depends_on", None) if isinstance(r, dict) else None for r in dicts]
        checked = iter(build(c.AddFacts, rows=[r for r in dicts if isinstance(r, dict)]).rows)  # parsed once, here
        batch = [r if isinstance(r, FactCreate) else next(checked).create() for r in dicts]
        return record_fact.add_facts(self._ctx, batch, depends_on=premises)

    def write_range(
        self, subject: str, predicate: str, object: Any, *, valid_from: Any, valid_to: Any,
        scope: dict[str, str] | None = None, statement: str | None = None,
    ) -> Fact:
        """A change for [valid_from, valid_to) only; outside the range the earlier value holds again."""
        cmd = build(c.WriteRange, subject=subject, predicate=predicate, object=object, valid_from=valid_from,
                    valid_to=valid_to, scope=scope, statement=statement)
        return record_fact.write_range(self._ctx, cmd)

    def correct_fact(self, fact_id: str, **changes: Any) -> Fact:
        """We were wrong about the past: a new version under the same fact_id (pass a version id to pin one)."""
        cmd = build(c.CorrectFact, fact_id=fact_id, **changes)
        return revise_fact.correct_fact(self._ctx, cmd)

    def succeed_fact(self, fact_id: str, *, object: Any, at: Any, **fields: Any) -> Fact:
        """The world changed at `at`: the old fact ends there; the returned successor starts there."""
        cmd = build(c.SucceedFact, fact_id=fact_id, object=object, at=at, **fields)
        return revise_fact.succeed_fact(self._ctx, cmd)

    def end_fact(self, fact_id: str, *, at: Any) -> Fact:
        """The claim stopped holding at valid time `at`."""
        cmd = build(c.EndFact, fact_id=fact_id, at=at)
        return revise_fact.end_fact(self._ctx, cmd)

    def retract_fact(self, fact_id: str, *, reason: str) -> list[Fact]:
        """We no longer believe it was ever true; returns the versions that stopped being believed."""
        cmd = build(c.RetractFact, fact_id=fact_id, reason=reason)
        return revise_fact.retract_fact(self._ctx, cmd)

    # -- reading -------------------------------------------------------------------------------
    def facts(
        self, subject: str | None = None, predicate: str | None = None, object: Any = None, *, valid_at: Any = None,
        known_at: Any = None, scope: dict[str, str] | None = None, include_undated: bool = True, states: Any = None,
        window: Window | None = None,
    ) -> AsOf[Fact]:
        """Versions valid at `valid_at` as believed at `known_at` (both default to now), then the undated ones that
        may hold there, apart (`.dated`, `.undated`) and each marked `undated`; `.unreadable` names stored versions
        skipped because their row fails validation. `window` reads one page of a listing in its query (REST's pages:
        `.next_offset` says where the next starts)."""
        cmd = build(c.FactsQuery, subject=subject, predicate=predicate, object=object, valid_at=valid_at,
                    known_at=known_at, scope=scope, include_undated=include_undated, states=states)
        return read_facts.facts(self._ctx, cmd, window=window)

    def history(self, fact_id: str, *, page: After | None = None) -> list[Fact]:
        """Every version of a fact: both intervals and how each ended (`.unreadable` names skipped bad rows); `page`
        reads one page of them in its query (REST's pages: `.next_after` says which version the next follows)."""
        return read_facts.history(self._ctx, build(c.HistoryQuery, fact_id=fact_id), page=page)

    def chain(self, subject: str, predicate: str, *, known_at: Any = None, scope: dict[str, str] | None = None) -> list[Fact]:
        """The evolution chain of (subject, predicate) in valid-time order."""
        cmd = build(c.ChainQuery, subject=subject, predicate=predicate, known_at=known_at, scope=scope)
        return read_facts.chain(self._ctx, cmd)

    def relations(self, entity: str, *, valid_at: Any = None, known_at: Any = None,
                  page: After | None = None) -> AsOf[Relation]:
        """Every relation of an entity at the point, both directions; undated ones after, apart and marked; `page`
        reads one page of them in its query (REST's and MCP's pages: `.next_after` says which the next follows)."""
        cmd = build(c.WhoQuery, entity=entity, valid_at=valid_at, known_at=known_at)
        return who.relations(self._ctx, cmd, page=page)

    def holders(self, predicate: str, object: Any, *, valid_at: Any = None, known_at: Any = None) -> AsOf[Fact]:
        """Who held `predicate object` at the point; undated holders after, apart and marked."""
        cmd = build(c.HoldersQuery, predicate=predicate, object=object, valid_at=valid_at, known_at=known_at)
        return who.holders(self._ctx, cmd)

    def path(self, a: str, b: str, *, valid_at: Any = None, known_at: Any = None, max_hops: int = 4) -> list[PathStep] | None:
        """How two entities are connected at the point (shortest chain of relations), or None; a dated chain wins,
        and undated hops are used only when none exists, each marked on its step."""
        cmd = build(c.PathQuery, a=a, b=b, valid_at=valid_at, known_at=known_at, max_hops=max_hops)
        return who.path(self._ctx, cmd)

    # -- governance ----------------------------------------------------------------------------
    def define_predicate(self, name: str, *, cardinality: Cardinality = "single",
                         inverse: str | None = None) -> PredicateDef:
        """Say whether a predicate is single- or multi-valued, and its inverse name."""
        cmd = build(c.DefinePredicate, name=name, cardinality=cardinality, inverse=inverse)
        return predicate_service.define_predicate(self._ctx, cmd)

    def predicates(self, *, page: After | None = None) -> list[PredicateDef]:
        """Predicates this tenant has defined, by name; `page` reads one page of them in its query (REST's pages:
        `.next_after` says which name the next follows)."""
        return predicate_service.predicates(self._ctx, build(c.PredicatesQuery), page=page)

    def conflicts(self, *, include_resolved: bool = False, page: After | None = None) -> list[Conflict]:
        """Writes kept but not applied, awaiting a decision; `page` reads one page of them in its query (REST's
        pages: `.next_after` says which conflict the next follows)."""
        cmd = build(c.ConflictsQuery, include_resolved=include_resolved)
        return conflict_service.conflicts(self._ctx, cmd, page=page)

    def resolve_conflict(self, conflict_id: str, *, decision: str, at: Any = None,
                         scope: dict[str, str] | None = None, reason: str | None = None) -> Fact:
        """Decide a conflict: succession (at), correction, reject, or split_scope (scope)."""
        cmd = build(c.ResolveConflict, conflict_id=conflict_id, decision=decision, at=at, scope=scope, reason=reason)
        return conflict_service.resolve_conflict(self._ctx, cmd)

    def merge_entities(self, keep: str, other: str) -> Entity:
        """Merge `other` into `keep`, reversibly; `other`'s name becomes an alias."""
        return entity_service.merge_entities(self._ctx, build(c.MergeEntities, keep=keep, other=other))

    def unmerge_entities(self, other: str) -> Entity:
        """Undo the merge of `other`."""
        return entity_service.unmerge_entities(self._ctx, build(c.UnmergeEntities, other=other))


FACTS_HANDLERS: dict[str, Callable[..., Any]] = {
    "add_fact": record_fact.add_fact, "add_facts": record_fact.add_rows, "write_range": record_fact.write_range,
    "correct_fact": revise_fact.correct_fact, "succeed_fact": revise_fact.succeed_fact, "end_fact": revise_fact.end_fact,
    "retract_fact": revise_fact.retract_fact, "facts": read_facts.facts, "history": read_facts.history,
    "chain": read_facts.chain, "relations": who.relations, "holders": who.holders, "path": who.path,
    "define_predicate": predicate_service.define_predicate, "predicates": predicate_service.predicates,
    "conflicts": conflict_service.conflicts,
    "resolve_conflict": conflict_service.resolve_conflict, "merge_entities": entity_service.merge_entities,
    "unmerge_entities": entity_service.unmerge_entities,
}
"""The facts capability's operations: their service entry points take the command, `(ctx, cmd)`."""


def _handlers(*tables: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """One table of every operation whose handler takes its command; a name registered twice fails at import."""
    merged: dict[str, Callable[..., Any]] = {}
    for table in tables:
        for name, handler in table.items():
            if name in merged:
                raise RuntimeError(f"operation {name!r} has two handlers: {merged[name]!r} and {handler!r}")
            merged[name] = handler
    return merged


HANDLERS = _handlers(FACTS_HANDLERS, gate_store.HANDLERS, truth_store.HANDLERS, lifecycle_store.HANDLERS,
                     search_store.HANDLERS, recall_store.HANDLERS, forget_store.HANDLERS, ledger_store.HANDLERS,
                     inspector_store.HANDLERS, imports_store.HANDLERS, procedural_store.HANDLERS,
                     verify_store.HANDLERS, policy_store.HANDLERS,
                     preferences_store.HANDLERS, episodic_store.HANDLERS, consent_store.HANDLERS)
"""Every operation whose service entry point takes its command, `(ctx, cmd)`: `Store.handle` passes a command a
surface validated straight to it. Each mixin's module declares its own (`HANDLERS` there)."""


# -- every operation checks its scope, below every surface ----------------------------------------------------------
UNREGISTERED: dict[str, str | None] = {
    "close": None, "for_principal": None, "for_tenant": None, "authorize": None,  # handles and the check itself
    "handle": None,  # a validated command run by its operation (which checks its own scope)
    "turn": "write",  # the write gate's turn: only `remember` is done with it
    "forget_preview": "read",  # the inspector's forget confirmation (it writes nothing; `forget` needs `forget`)
}
"""Public Store methods outside the operation registry, with the scope each needs (None: none); a test checks that
every public method is either registered or named here."""


def _guarded(name: str, scope_of: Callable[[dict[str, Any]], str], method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)  # name, docstring, annotations and signature stay the method's
    def call(self: Store, *args: Any, **kwargs: Any) -> Any:
        self.principal.require(scope_of(kwargs), name)  # Forbidden (403) before anything is read or written
        return method(self, *args, **kwargs)

    return call


def _guard_operations() -> None:
    from credo.schema.operations import OPERATIONS

    for op in OPERATIONS:
        setattr(Store, op.store_method, _guarded(op.name, op.scope_for, getattr(Store, op.store_method)))
    for name, scope in UNREGISTERED.items():
        if scope is not None:
            setattr(Store, name, _guarded(name, lambda _fields, s=scope: s, getattr(Store, name)))


_guard_operations()
