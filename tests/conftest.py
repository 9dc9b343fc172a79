"""One real Neo4j per test session (NEO4J_URI, else Docker, else the local distribution), migrated once."""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from credo.graph.core import db as db_module
from credo.graph.core.db import Database
from credo.ops.migrate import migrate
from credo.schema.time import parse_instant
from credo.settings import Settings
from credo.store import Store

DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


class Clock:
    """A test clock: `at(...)` moves it; each read advances one millisecond so writes stay ordered."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2025, 1, 1, tzinfo=timezone.utc)

    def at(self, when: object) -> datetime:
        """Move the clock to a point (date text, date or aware datetime)."""
        self.now = parse_instant(when, "clock")
        return self.now

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


@pytest.fixture(scope="session")
def neo4j_info(tmp_path_factory: pytest.TempPathFactory):
    """The session's Neo4j: an external one when NEO4J_URI is set, else one this session starts and stops."""
    from credo.ops.provision import LocalNeo4j, resolve_connection

    settings = Settings()
    if settings.neo4j_uri:
        yield resolve_connection(settings, start=False)
        return
    data_dir = Path(os.environ.get("CREDO_TEST_DATA_DIR") or tmp_path_factory.mktemp("credo-data"))
    settings = Settings(data_dir=data_dir, instance="pytest", use_docker=settings.use_docker)
    info = resolve_connection(settings, start=True)
    try:
        yield info
    finally:
        if info.origin == "local":
            LocalNeo4j(settings).stop()


@pytest.fixture(scope="session")
def neo4j_db(neo4j_info) -> Iterator[Database]:
    """A driver on the session's Neo4j, schema migrated once."""
    db = Database(neo4j_info.uri, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    migrate(db)
    yield db
    db.close()


@pytest.fixture
def cli_env(neo4j_info, tenant: str) -> dict[str, str]:
    """Environment for running the `credo` command against the session's Neo4j in this test's tenant."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(NEO4J_URI=neo4j_info.uri, NEO4J_USER=neo4j_info.user, NEO4J_PASSWORD=neo4j_info.password,
               NEO4J_DATABASE=neo4j_info.database, CREDO_TENANT=tenant, HF_HUB_OFFLINE="1")
    return env


@pytest.fixture
def clock() -> Clock:
    """An injectable clock starting at 2025-01-01."""
    return Clock()


@pytest.fixture
def tenant() -> str:
    """A tenant of this test alone, so tests never see each other's data."""
    return f"t_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def queries_run(monkeypatch) -> list[str]:
    """The name of every query a `Tx` runs from now on, in order (the real queries run on the real server; a raw
    test query without a name is noted by its text)."""
    ran: list[str] = []
    real = db_module.Tx.rows

    def noting(self, query, **params):
        ran.append(getattr(query, "name", None) or query.text)
        return real(self, query, **params)

    monkeypatch.setattr(db_module.Tx, "rows", noting)
    return ran


@pytest.fixture
def rows_read(monkeypatch):
    """`rows_read(name)`: a list that gets, from now on, how many rows each run of the named query returned (a
    page cut in its query reads its page and one more row, never the whole listing)."""
    counts: dict[str, list[int]] = {}
    real = db_module.Tx.rows

    def counting(self, query, **params):
        rows = real(self, query, **params)
        counts.get(getattr(query, "name", ""), []).append(len(rows))
        return rows

    monkeypatch.setattr(db_module.Tx, "rows", counting)
    return lambda name: counts.setdefault(name, [])


@pytest.fixture
def store(neo4j_db: Database, tenant: str, clock: Clock, tmp_path: Path) -> Store:
    """A store bound to this test's tenant and clock, without embeddings (CREDO_TEST_CRYPTO=on: in crypto-erasure
    mode, keys in the test's own directory, to run the suite against the mode)."""
    cipher = None
    if os.environ.get("CREDO_TEST_CRYPTO") == "on":
        from credo.services.core.crypto import cipher_for
        from credo.services.adapters.key_stores import FileKeyStore

        cipher = cipher_for("on", FileKeyStore(tmp_path / "keys"), tenant)
    return Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False, cipher=cipher)


@pytest.fixture
def semantic_logged(store: Store) -> Store:
    """The tenant's stored write policy makes semantic writes logged instead of surfaced (set through the real
    operation), so `remember` serves at once: for tests of the gate and of reads rather than of consent (the default,
    a surfaced write waiting for consent, is tests/services/gate/test_consent.py's)."""
    store.set_write_policy({"semantic": {"visible": "logged"}})
    return store


@pytest.fixture
def datasets() -> Path:
    """The shared datasets folder, or a skip when this clone has none."""
    if not DATASETS.exists():
        pytest.skip("../shared/datasets is absent")
    return DATASETS



@dataclass
class ChatReplay:
    """The server's address, the reply contents still to give (in order), and every request it received."""

    url: str
    replies: list[str]
    requests: list[dict] = field(default_factory=list)
    exhausted: str = "not json"


@contextmanager
def chat_replay(replies: list[str]) -> Iterator[ChatReplay]:
    """Serve `replies` as `/chat/completions` answers, one per request, until the block ends."""
    state = ChatReplay(url="", replies=list(replies))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append({"path": self.path, "body": body})
            content = state.replies.pop(0) if state.replies else state.exhausted
            reply = json.dumps({"id": "chatcmpl-replay", "object": "chat.completion", "model": body.get("model"),
                                "choices": [{"index": 0, "finish_reason": "stop",
                                             "message": {"role": "assistant", "content": content}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    server.timeout = 5
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def chat_endpoint():
    """Start a local OpenAI-compatible replay server: `with chat_endpoint([reply, ...]) as replay: ...`."""
    return chat_replay
