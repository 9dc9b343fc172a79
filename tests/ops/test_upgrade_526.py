"""A store made by Neo4j 5.26 (Credo's previous release): refused as a server, opened in place as a local instance.

Needs the 5.26 jars a previous Credo cached (`~/.cache/credo/neo4j/5.26.*`) and a Java 17 or 21 to run them (5.26
does not start on the Java 25 pip ships); skipped on a machine that never ran the 5.26 release.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from credo.graph.core.db import Database
from credo.ops.provision import LocalNeo4j, resolve_connection
from credo.ops.provision_dist import cached_versions, java_major_version
from credo.ops.provision_proc import free_port, terminate, write_private
from credo.schema.errors import ConfigError
from credo.settings import Settings


def _old_release() -> tuple[Path, Path] | None:
    cache = Settings().cache_dir
    old = [v for v in cached_versions(cache) if v.startswith("5.26.")]
    java = shutil.which("java", path="/usr/lib/jvm/java-17-openjdk-amd64/bin:/usr/bin")
    if not old or java is None or java_major_version(Path(java)) not in (17, 21):
        return None
    return cache / "neo4j" / old[0] / "lib", Path(java)


OLD = _old_release()
pytestmark = pytest.mark.skipif(OLD is None, reason="no cached Neo4j 5.26 jars or no Java 17/21 to run them")


@pytest.fixture
def old_instance(tmp_path):
    """A Credo instance directory whose server is Neo4j 5.26, running, with one node written by it."""
    lib, java = OLD
    settings = Settings(neo4j_uri=None, data_dir=tmp_path, use_docker=False, instance="old")
    home = settings.instance_dir
    for sub in ("conf", "data", "logs", "plugins", "run"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    port = free_port()
    creds = {"user": "neo4j", "password": "old-release-pass"}
    write_private(home / "credentials.json", creds)
    write_private(home / "instance.json", {"version": lib.parent.name, "port": port})
    (home / "conf" / "neo4j.conf").write_text("\n".join([
        f"server.bolt.listen_address=127.0.0.1:{port}", "server.http.enabled=false", "server.https.enabled=false",
        "dbms.usage_report.enabled=false", "server.memory.pagecache.size=128m",
        *(f"server.directories.{name}={home / name}" for name in ("data", "logs", "plugins", "run")),
    ]) + "\n")
    env = {**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(home / "conf")}
    subprocess.run([str(java), "-cp", f"{lib}/*", "org.neo4j.cli.AdminTool", "dbms", "set-initial-password", "--",
                    creds["password"]], env=env, cwd=home, capture_output=True, check=True, timeout=300)
    marker = f"-Dcredo.home={home.resolve()}"
    with open(home / "logs" / "console.log", "ab") as console:
        process = subprocess.Popen(
            [str(java), "-Xmx512m", marker, "-cp", f"{lib}/*", "org.neo4j.server.CommunityEntryPoint",
             f"--home-dir={home}", f"--config-dir={home / 'conf'}"],
            cwd=home, stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT, start_new_session=True)
    (home / "run" / "neo4j.pid").write_text(f"{process.pid}\n")
    uri = f"bolt://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with GraphDatabase.driver(uri, auth=(creds["user"], creds["password"])) as driver:
                driver.execute_query("CREATE (:Written {by: '5.26', at: 42})")
            break
        except Exception:
            if time.monotonic() > deadline or process.poll() is not None:
                raise
            time.sleep(1)
    yield settings, uri, creds
    terminate(process.pid, marker, 20)
    LocalNeo4j(settings, progress=lambda _: None).stop(timeout=30)


def test_a_server_older_than_2026_is_refused_at_connect_with_one_line(old_instance):
    _, uri, creds = old_instance
    db = Database(uri, creds["user"], creds["password"], "neo4j", timeout_s=10)
    try:
        with pytest.raises(ConfigError) as caught:
            db.verify()
    finally:
        db.close()
    message = caught.value.message
    assert f"the Neo4j at {uri} is 5.26." in message
    assert "needs Neo4j 2026.01 or newer" in message and "unset NEO4J_URI" in message
    assert "\n" not in message


def test_a_local_instance_made_by_5_26_is_restarted_on_2026_and_keeps_its_data(old_instance):
    settings, _, creds = old_instance
    said: list[str] = []
    # when Credo resolves its local Neo4j and finds the 5.26 server running
    info = resolve_connection(settings, progress=said.append)
    # then it says so, restarts the instance on 2026.x, and the store 5.26 wrote is read in place
    assert info.server_version.startswith("2026.")
    assert any("older than 2026.01" in line for line in said), said
    assert json.loads((settings.instance_dir / "instance.json").read_text())["version"].startswith("2026.")
    with GraphDatabase.driver(info.uri, auth=(creds["user"], creds["password"])) as driver:
        rows, _, _ = driver.execute_query("MATCH (w:Written) RETURN w.by AS by, w.at AS at")
    assert [(r["by"], r["at"]) for r in rows] == [("5.26", 42)]
