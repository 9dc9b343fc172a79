"""The one place Credo talks to the Neo4j driver: routed reads, managed writes, error translation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, RoutingControl
from neo4j import exceptions as neo4j_errors

from credo.cypher import Query
from credo.graph.queries import READ_SERVER_INFO
from credo.schema.errors import ConflictError, CredoError, DatabaseUnavailable, InvalidInput, RaceLost

T = TypeVar("T")


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


class Tx:
    """A transaction handed to repository functions; runs `Query` objects only."""

    def __init__(self, tx: neo4j.ManagedTransaction) -> None:
        self._tx = tx

    def rows(self, query: Query, **params: Any) -> list[dict[str, Any]]:
        """Run a query and return its records as plain dicts."""
        return [record.data() for record in self._tx.run(query.text, params)]

    def one(self, query: Query, **params: Any) -> dict[str, Any] | None:
        """Run a query and return its first record, or None."""
        found = self.rows(query, **params)
        return found[0] if found else None


class Database:
    """A driver bound to one database; reads route as reads, writes run as managed transactions."""

    def __init__(self, uri: str, user: str, password: str, database: str = "neo4j", *, timeout_s: float = 5.0,
                 pool_size: int = 100) -> None:
        self.uri = uri
        self.database = database
        self._driver = GraphDatabase.driver(
            uri, auth=(user, password), connection_timeout=timeout_s, max_connection_lifetime=3600,
            notifications_min_severity="OFF", max_connection_pool_size=pool_size,
        )

    def close(self) -> None:
        """Close the driver and its connection pool."""
        self._driver.close()

    def verify(self) -> None:
        """Raise DatabaseUnavailable unless the server answers."""
        with _translated(self.uri):
            try:
                self._driver.verify_connectivity()
            except (OSError, neo4j_errors.DriverError) as exc:
                raise DatabaseUnavailable(self.uri, "no server answered", detail=str(exc)) from exc

    def read(self, work: Callable[[Tx], T]) -> T:
        """Run `work` in a read transaction routed to a reader."""
        with _translated(self.uri), self._driver.session(
            database=self.database, default_access_mode=neo4j.READ_ACCESS
        ) as session:
            return session.execute_read(lambda tx: work(Tx(tx)))

    def write(self, work: Callable[[Tx], T]) -> T:
        """Run `work` in a managed write transaction (retried on transient errors)."""
        with _translated(self.uri), self._driver.session(database=self.database) as session:
            return session.execute_write(lambda tx: work(Tx(tx)))

    def query(self, query: Query, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        """Run one query in its own transaction, routed by `write`."""
        with _translated(self.uri):
            result = self._driver.execute_query(
                query.text,
                params,
                database_=self.database,
                routing_=RoutingControl.WRITE if write else RoutingControl.READ,
            )
            return [record.data() for record in result.records]

    def run_schema(self, statement: str) -> None:
        """Run one schema statement (DDL must run outside explicit transactions)."""
        with _translated(self.uri), self._driver.session(database=self.database) as session:
            session.run(statement).consume()

    def server_info(self) -> dict[str, str]:
        """Server agent, version and edition."""
        with _translated(self.uri):
            records, _, _ = self._driver.execute_query(
                READ_SERVER_INFO.text, database_=self.database, routing_=RoutingControl.READ
            )
            row = records[0]
            return {"name": row["name"], "version": row["version"], "edition": row["edition"]}
