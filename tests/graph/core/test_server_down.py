"""Issue 8 §6: while the server is down, an open handle fails within CREDO_CONNECT_TIMEOUT, in one quiet line.

Starts a private local Neo4j (its own instance directory; about 15 s) and stops it under an open Store.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid

import pytest

import credo
from credo.ops.provision import LocalNeo4j
from credo.schema.errors import DatabaseUnavailable
from credo.settings import Settings

TIMEOUT_S = 3.0
SLACK_S = 1.5


@pytest.fixture(scope="module")
def stopped_under_a_store(tmp_path_factory):
    """A Store opened on a private server that holds one fact, and the server stopped afterwards."""
    settings = Settings(neo4j_uri=None, data_dir=tmp_path_factory.mktemp("down-data"), use_docker=False,
                        instance=f"down-{uuid.uuid4().hex[:8]}", connect_timeout_s=TIMEOUT_S)
    local = LocalNeo4j(settings, progress=lambda _: None)
    info = local.start()
    try:
        store = credo.connect("t_down", settings, embedder=None, start=False)
        store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
        assert store.facts("Acme account", "owned_by")  # the pool holds live connections now
    finally:
        local.stop(timeout=30)
    yield store, info
    store.close()


def _timed(call):
    began = time.monotonic()
    with pytest.raises(DatabaseUnavailable) as caught:
        call()
    return time.monotonic() - began, caught.value


@pytest.mark.parametrize("operation", ["read", "write"])
def test_a_stopped_server_fails_an_open_handle_within_the_connect_timeout_in_one_quiet_line(
        stopped_under_a_store, capfd, operation):
    # given an open store whose server has been stopped
    store, _ = stopped_under_a_store
    capfd.readouterr()
    # when a read (or a write) is attempted
    call = (lambda: store.facts("Acme account", "owned_by")) if operation == "read" else (
        lambda: store.add_fact("Acme account", "billed_to", "Acme GmbH", valid_from="2024-01-01"))
    elapsed, error = _timed(call)
    # then it fails with one DatabaseUnavailable line in about the connect timeout, and nothing reaches the
    # terminal (the driver's own log records are an application's to route; see the subprocess test below)
    assert elapsed <= TIMEOUT_S + SLACK_S, elapsed
    assert "\n" not in error.message
    out, err = capfd.readouterr()
    assert err == "" and out == "", err


_SCRIPT = """
import sys, time
from credo.graph.core.db import Database
from credo.schema.errors import DatabaseUnavailable
from credo.store import Store
db = Database(sys.argv[1], sys.argv[2], sys.argv[3], timeout_s=float(sys.argv[4]))
store = Store(db, tenant="t_down", embedder=None)
began = time.monotonic()
try:
    store.facts("Acme account", "owned_by")
except DatabaseUnavailable as exc:
    print(f"{time.monotonic() - began:.2f} {exc.message}")
"""


def test_a_process_without_logging_set_up_prints_nothing_but_its_own_line(stopped_under_a_store):
    # given a program that configured no logging, reading through a handle on the stopped server
    _, info = stopped_under_a_store
    run = subprocess.run([sys.executable, "-c", _SCRIPT, info.uri, info.user, info.password, str(TIMEOUT_S)],
                         capture_output=True, text=True, timeout=60)
    # then the driver prints nothing to stderr, and the program gets one DatabaseUnavailable line in time
    assert run.stderr == ""
    [line] = run.stdout.splitlines()
    elapsed, message = line.split(" ", 1)
    assert float(elapsed) <= TIMEOUT_S + SLACK_S and info.uri in message
