"""The one place Credo talks to the Neo4j driver: routed reads, managed writes, error translation."""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase
from neo4j import exceptions as neo4j_errors

from credo.cypher import Query
from credo.graph.core.collector import paused
from credo.ops.provision_dist import MIN_SERVER_TEXT, server_supported
from credo.graph.core.queries import READ_SERVER_INFO
from credo.graph.core.tx_state import Sealer, TxState
from credo.graph.core.vectors import Listed
from credo.schema.errors import ConfigError, ConflictError, CredoError, DatabaseUnavailable, InvalidInput, RaceLost

T = TypeVar("T")

# The driver's own retry loop waits 30 s for a stopped server and logs each retry to stderr (through logging's
# last-resort handler when the application configured none); Credo retries itself and keeps the driver quiet.
logging.getLogger("neo4j").addHandler(logging.NullHandler())
RACE_RETRY_S = 30.0  # how long a transaction that lost a race (TransientError) is retried
_FIRST_DELAY_S, _MAX_DELAY_S = 0.1, 1.0
_EQUIVALENT_SCHEMA = "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
_IF_NOT_EXISTS = re.compile(r"\bIF\s+NOT\s+EXISTS\b", re.IGNORECASE)
_IDLE_SESSIONS = 8  # idle read sessions kept per Database


@contextmanager
def _translated(uri: str) -> Iterator[None]:
    """Turn driver exceptions into Credo's error tree; domain errors pass through untouched."""
    try:
        yield
    except CredoError:
        raise
    except neo4j_errors.AuthError as exc:
        raise DatabaseUnavailable(uri, "authentication failed (check NEO4J_USER / NEO4J_PASSWORD)", detail=str(exc)) from exc
    except neo4j_errors.ServiceUnavailable as exc:
        raise DatabaseUnavailable(uri, "no server answered", detail=str(exc)) from exc
    except neo4j_errors.ConstraintError as exc:
        raise ConflictError("graph", f"a uniqueness rule was broken: {exc.message}") from exc
    except neo4j_errors.TransientError as exc:
        raise RaceLost("graph", f"the write raced another writer: {exc.message}") from exc
    except neo4j_errors.CypherTypeError as exc:
        raise InvalidInput("query", f"a value has the wrong type: {exc.message}") from exc
    except neo4j_errors.Neo4jError as exc:
        raise CredoError(f"Neo4j refused the operation: {exc.message}", detail=str(exc)) from exc
    except neo4j_errors.DriverError as exc:
        raise DatabaseUnavailable(uri, "the driver failed", detail=str(exc)) from exc


class _NotPlain(Exception):
    """A value `Record.data()` would transform (a node, relationship or path)."""


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """A record value made of scalars, lists and maps, as `Record.data()` returns it; _NotPlain otherwise."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _SCALARS else _plain(v) for k, v in value.items()}
    if kind.__module__.startswith("neo4j.time") or kind.__module__.startswith("neo4j.spatial"):
        return value
    raise _NotPlain


# the driver's debug line formats every parameter (graph/core/vectors.py, where its measurement is)
def _quiet(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters with each long list as a Listed (a short one costs its `repr` less than the copy)."""
    return {k: Listed(v) if type(v) is list and len(v) > 8 else v for k, v in params.items()}


# `$levels` of a transaction nobody bound to a caller (migrations, key look-ups, tests): every label
# (schema/search.py `query_levels("all")`, spelled here because graph/ imports no schema rule)
SEES_ALL = ["*", "*"]


class Tx:
    """A transaction handed to repository functions; runs `Query` objects only (for a read, each query may be an
    auto-commit query of one session).

    `levels` is the caller's clearance as the `$levels` of every query whose header declares it (the sensitivity
    labels it may be served, cypher/fragments/visible.cypher): `Tx.rows` supplies it, so no repository function
    can forget it or pass another. `services.context.Context` binds it to the store's clearance.

    `state` holds what the repositories read beside the queries (the cipher, the ledger's actor, chain and pending
    rows, deferred flags, a prefetched walk step: graph/core/tx_state.py), as named fields."""

    def __init__(self, tx: neo4j.Transaction | neo4j.ManagedTransaction | neo4j.Session,
                 levels: list[str] | None = None) -> None:
        self._tx = tx
        self.statements = 0  # queries run so far (a result prefetched by one statement is valid until the next)
        self.levels: list[str] = list(levels or SEES_ALL)
        self.state = TxState()

    def parameters(self, query: Query, params: dict[str, Any]) -> dict[str, Any]:
        """What a query is sent: the caller's parameters, and `levels` when its header declares it."""
        declared = getattr(query, "declared", ())  # a raw test query (only a text) declares nothing
        if "levels" in params:
            raise ValueError(f"{getattr(query, 'name', 'a query')}: $levels comes from the caller's clearance "
                             "(Tx.levels), never from an argument")
        return {**params, "levels": self.levels} if "levels" in declared else params

    def rows(self, query: Query, **params: Any) -> list[dict[str, Any]]:
        """Run a query and return its records as plain dicts (as `Record.data()` gives them; a record of plain
        values is converted without the driver's per-value transform, which dominated large list results; sealed
        content opened when a cipher is set)."""
        found = []
        self.statements += 1
        params = self.parameters(query, params)
        result = self._tx.run(getattr(query, "body", query.text), _quiet(params))  # a raw test query: only a text
        # measured: bench/audit_tricks.py --parts reads cascade --tricks plain on Neo4j 2026.08.1 (2026-12-03): every
        # record through Record.data() took 1.37x the client CPU of a rolled-back 10,000-dependent end_fact (479 / 351
        # ms) and 1.06x that of 100 point reads
        # its header says it returns no node, relationship or path at any depth: records as given (a raw test query
        # with only a text has no `plain`)
        if getattr(query, "plain", False):
            found = [dict(zip(record.keys(), record.values())) for record in result]
        else:
            for record in result:
                try:
                    found.append(dict(zip(record.keys(), [_plain(v) for v in record.values()])))
                except _NotPlain:
                    found.append(record.data())
        cipher = self.state.cipher  # set by Context.bind (crypto-erasure mode)
        return cipher.open_tree(self.state.tenant, found) if cipher is not None else found

    def one(self, query: Query, **params: Any) -> dict[str, Any] | None:
        """Run a query and return its first record, or None."""
        found = self.rows(query, **params)
        return found[0] if found else None


def cipher_of(tx: Tx) -> Sealer | None:
    """The crypto-erasure cipher bound to this transaction (services/core/crypto.py), or None when the mode is off."""
    return tx.state.cipher


def _unreachable(error: Exception) -> bool:
    """Whether a retryable driver error means no server answered (as opposed to a lost race)."""
    return isinstance(error, (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired))


class Database:
    """A driver bound to one database; reads route as reads, writes run in retried transactions."""

    def __init__(self, uri: str, user: str, password: str, database: str = "neo4j", *, timeout_s: float = 5.0,
                 pool_size: int = 100) -> None:
        self.uri = uri
        self.database = database
        self.timeout_s = timeout_s
        self._driver = GraphDatabase.driver(
            uri, auth=(user, password), connection_timeout=timeout_s, connection_acquisition_timeout=timeout_s,
            max_connection_lifetime=3600, notifications_min_severity="OFF", max_connection_pool_size=pool_size,
        )
        # idle read sessions: a read borrows one instead of building a session per call (its set-up was a measurable
        # share of a point read's client time); a session runs auto-commit queries, so it holds no transaction
        # measured: bench/audit_tricks.py --parts reads --tricks sessions on Neo4j 2026.08.1 (2026-12-03, load 3-4):
        # 100 point reads with a new session each took 1.03-1.10x the client CPU of borrowed ones (four runs of 8 pairs)
        self._idle: list[neo4j.Session] = []
        self._idle_lock = threading.Lock()

    def close(self) -> None:
        """Close the idle read sessions, the driver and its connection pool."""
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for session in idle:
            session.close()
        self._driver.close()

    def _borrow(self) -> neo4j.Session:
        """An idle read session, or a new one."""
        with self._idle_lock:
            if self._idle:
                return self._idle.pop()
        return self._driver.session(database=self.database, default_access_mode=neo4j.READ_ACCESS)

    def _give_back(self, session: neo4j.Session) -> None:
        """Keep a read session that finished cleanly for the next read (a few at most: one per concurrent reader)."""
        with self._idle_lock:
            if len(self._idle) < _IDLE_SESSIONS:
                self._idle.append(session)
                return
        session.close()

    def _read_once(self, work: Callable[[Tx], T]) -> T:
        """Run `work` as auto-commit queries of a borrowed session; a session whose work failed is closed, not kept."""
        session = self._borrow()
        try:
            result = work(Tx(session))
        except BaseException:
            session.close()
            raise
        self._give_back(session)
        return result

    def verify(self) -> None:
        """Raise DatabaseUnavailable unless the server answers."""
        with _translated(self.uri):
            try:
                self._driver.verify_connectivity()
                agent = self._driver.get_server_info().agent or ""
            except (OSError, neo4j_errors.DriverError) as exc:
                raise DatabaseUnavailable(self.uri, "no server answered", detail=str(exc)) from exc
        version = agent.split("/", 1)[-1]
        if not server_supported(version):
            raise ConfigError(
                f"the Neo4j at {self.uri} is {version}; Credo needs Neo4j {MIN_SERVER_TEXT} or newer (its search "
                "filters inside the vector index): upgrade that server, or unset NEO4J_URI so Credo runs its own"
            )

    def _run(self, work: Callable[[Tx], T], access_mode: str) -> T:
        """Run `work` in one transaction (a read: in one session), retried with a fresh Tx while the error is
        retryable: a server that does not answer for `timeout_s` (CREDO_CONNECT_TIMEOUT), a lost race for
        RACE_RETRY_S."""
        began, delay = time.monotonic(), _FIRST_DELAY_S
        with _translated(self.uri):
            while True:
                try:
                    if access_mode == neo4j.READ_ACCESS:
                        # auto-commit queries: Neo4j reads committed data either way, so an explicit read
                        # transaction buys nothing but its BEGIN and COMMIT round trips
                        return self._read_once(work)
                    # the collector waits while the write builds its working set (graph/core/collector.py)
                    with paused(), self._driver.session(database=self.database,
                                                        default_access_mode=access_mode) as session:
                        with session.begin_transaction() as tx:
                            result = work(Tx(tx))
                            tx.commit()
                            return result
                except (neo4j_errors.DriverError, neo4j_errors.Neo4jError) as exc:
                    budget = self.timeout_s if _unreachable(exc) else RACE_RETRY_S
                    left = began + budget - time.monotonic()
                    if not exc.is_retryable() or left <= 0:
                        raise
                time.sleep(min(delay * random.uniform(0.8, 1.2), left))
                delay = min(delay * 2, _MAX_DELAY_S)

    def read(self, work: Callable[[Tx], T]) -> T:
        """Run `work` as auto-commit queries routed to a reader (retried like a transaction)."""
        return self._run(work, neo4j.READ_ACCESS)

    def write(self, work: Callable[[Tx], T]) -> T:
        """Run `work` in a write transaction (retried on transient errors; a fresh Tx per attempt)."""
        return self._run(work, neo4j.WRITE_ACCESS)

    def query(self, query: Query, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        """Run one query in its own transaction, routed by `write`."""
        return (self.write if write else self.read)(lambda tx: tx.rows(query, **params))

    def run_schema(self, statement: str) -> None:
        """Run one schema statement (DDL must run outside explicit transactions).

        A `CREATE ... IF NOT EXISTS` that another session made the same index or constraint for meanwhile succeeds:
        Neo4j checks IF NOT EXISTS before it takes the schema lock, so the later of two concurrent creations fails
        with EquivalentSchemaRuleAlreadyExists although what it asked for exists."""
        with _translated(self.uri):
            try:
                with self._driver.session(database=self.database) as session:
                    session.run(statement).consume()
            except neo4j_errors.ClientError as exc:
                if exc.code != _EQUIVALENT_SCHEMA or not _IF_NOT_EXISTS.search(statement):
                    raise

    def run_schema_query(self, query: Query, **params: Any) -> None:
        """Run one query that batches its own transactions (CALL ... IN TRANSACTIONS) as an auto-commit query; one
        that loses a race (a deadlock Neo4j broke by aborting it) runs again, as a write does, for RACE_RETRY_S:
        such a query must be idempotent (the batches it committed before are not undone)."""
        began, delay = time.monotonic(), _FIRST_DELAY_S
        with _translated(self.uri):
            while True:
                try:
                    with self._driver.session(database=self.database) as session:
                        session.run(getattr(query, "body", query.text), params).consume()
                    return
                except neo4j_errors.Neo4jError as exc:
                    left = began + RACE_RETRY_S - time.monotonic()
                    if not exc.is_retryable() or left <= 0:
                        raise
                time.sleep(min(delay * random.uniform(0.8, 1.2), left))
                delay = min(delay * 2, _MAX_DELAY_S)

    def server_info(self) -> dict[str, str]:
        """Server agent, version and edition."""
        row = self.read(lambda tx: tx.one(READ_SERVER_INFO))
        return {"name": row["name"], "version": row["version"], "edition": row["edition"]}
