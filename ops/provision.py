"""Find or start the Neo4j that Credo talks to.

Order of `resolve_connection`: an explicit `NEO4J_URI` (checked, never started); a local instance
this machine already runs; a Docker container when an engine answers (lives as long as the
process); otherwise a local instance started from cached jars (`LocalNeo4j`), detached, so it
outlives the command that started it. An instance lives in `settings.instance_dir`:

    conf/neo4j.conf  data/  logs/neo4j.log  logs/console.log  run/neo4j.pid
    credentials.json (0600)  instance.json (version, port)
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from credo.ops import provision_dist as dist
from credo.ops.provision_manifest import PINNED_VERSION
from credo.ops.provision_proc import (
    ENTRY_POINT, file_lock, free_port, pid_alive, port_is_free, read_json, tail, terminate, write_private,
)
from credo.schema.errors import ConfigError, DatabaseUnavailable, ProvisioningError
from credo.settings import Settings

DEFAULT_BOLT_PORT = 7687
START_TIMEOUT_S = 120.0
DOCKER_IMAGE = f"neo4j:{PINNED_VERSION}-community"

# The transaction logs of the server Credo runs itself: Community has no online backup (Credo's backup is an offline
# dump), so the logs serve only crash recovery and are kept to a bounded size instead of Neo4j's default two days;
# a forgotten fact's words then leave the logs within a few rotations (the residue report's outside_store names the
# policy in force). Files are not preallocated: the default 256 MiB per database per file took half a GB on an empty
# server, and a test run starts several.
TX_LOG_SETTINGS = (
    "db.tx_log.preallocate=false",
    "db.tx_log.rotation.size=64M",
    "db.tx_log.rotation.retention_policy=128M size",
    "db.checkpoint.interval.time=5m",
)
_JVM_FLAGS = (
    "-Xms512m", "-Xmx1g", "-XX:+UseG1GC", "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions", "-XX:+TrustFinalNonStaticFields", "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024", "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048", "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-Dlog4j2.disable.jmx=true", "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
)

# Containers started by this process; held so they live exactly as long as it does.
_CONTAINERS: list[object] = []


def print_to_stderr(message: str) -> None:
    """Default progress sink: one line on stderr."""
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class ConnectionInfo:
    """Where Credo's Neo4j is and how to log in."""

    uri: str
    user: str
    password: str
    database: str
    origin: Literal["env", "docker", "local"]
    pid: int | None = None
    data_dir: Path | None = None
    server_version: str | None = None


def check_server(uri: str, user: str, password: str | None, timeout_s: float) -> str | None:
    """Return the server version at `uri`, or raise DatabaseUnavailable within about `timeout_s`."""
    auth = (user, password) if password is not None else None
    try:
        with GraphDatabase.driver(
            uri, auth=auth, connection_timeout=timeout_s, connection_acquisition_timeout=timeout_s,
        ) as driver:
            info = driver.get_server_info()
    except AuthError as exc:
        raise DatabaseUnavailable(uri, f"authentication failed for user {user!r}", detail=str(exc)) from exc
    except ValueError as exc:  # malformed URI or unsupported scheme
        raise ConfigError(f"NEO4J_URI {uri!r} is not a valid Neo4j URI: {exc}") from exc
    except (DriverError, Neo4jError, OSError) as exc:
        raise DatabaseUnavailable(uri, _short_reason(exc), detail=repr(exc)) from exc
    return info.agent.split("/", 1)[-1] if info.agent else None


def _short_reason(exc: Exception) -> str:
    """One line from a driver error: the OS reason when there is one ("Connection refused")."""
    text = str(exc) or type(exc).__name__
    os_reason = re.findall(r"\(reason (?:\[Errno \d+\] )?([^)]*)\)", text)
    if os_reason:
        return os_reason[-1].strip()
    return text.splitlines()[0].rstrip(":").strip()


def resolve_connection(
    settings: Settings, *, start: bool = True, progress: Callable[[str], None] = print_to_stderr
) -> ConnectionInfo:
    """Return the Neo4j to use: NEO4J_URI, a running local instance, Docker, or a new local instance."""
    if settings.neo4j_uri:
        version = check_server(
            settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password, settings.connect_timeout_s
        )
        return ConnectionInfo(
            settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password or "",
            settings.neo4j_database, "env", server_version=version,
        )
    local = LocalNeo4j(settings, progress=progress)
    running = local.running_info()
    if running is not None and not dist.server_supported(running.server_version or ""):
        progress(f"the local Neo4j runs {running.server_version}, older than {dist.MIN_SERVER_TEXT}; restarting it "
                 f"on Neo4j {PINNED_VERSION}")
        local.stop()
        running = None
    if running is not None:
        return running
    if not start:
        if local.pid() is not None:
            raise DatabaseUnavailable(local.uri or str(local.home), "the local Neo4j is running but does not answer; "
                                      "see `credo neo4j logs`")
        raise DatabaseUnavailable(local.uri or str(local.home),
                                  "the local Neo4j is stopped; start it with `credo neo4j start`")
    if settings.use_docker and _docker_answers():
        try:
            return _start_container(settings, progress)
        except Exception as exc:  # any Docker trouble: fall back to the local server
            progress(f"Docker could not start Neo4j ({exc}); starting a local Neo4j instead")
    return local.start()


def _docker_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def _start_container(settings: Settings, progress: Callable[[str], None]) -> ConnectionInfo:
    from testcontainers.community.neo4j import Neo4jContainer

    password = secrets.token_urlsafe(18)
    progress(f"starting Neo4j in Docker ({DOCKER_IMAGE}); it stops when this process exits ...")
    container = Neo4jContainer(DOCKER_IMAGE, password=password)
    container.start()
    _CONTAINERS.append(container)
    return ConnectionInfo(container.get_connection_url(), "neo4j", password, settings.neo4j_database, "docker")


class LocalNeo4j:
    """A Neo4j Community server run from cached jars, in its own directory, detached from the caller."""

    def __init__(
        self,
        settings: Settings,
        *,
        instance_dir: Path | None = None,
        port: int = DEFAULT_BOLT_PORT,
        progress: Callable[[str], None] = print_to_stderr,
    ) -> None:
        self.settings = settings
        self.home = (instance_dir or settings.instance_dir).resolve()
        self.preferred_port = port
        self.progress = progress
        self._marker = f"-Dcredo.home={self.home}"  # identifies our JVM when the pid is reused

    # -- paths and stored state ---------------------------------------------------------------

    @property
    def pid_file(self) -> Path:
        """File holding the server's process id while it runs."""
        return self.home / "run" / "neo4j.pid"

    @property
    def log_file(self) -> Path:
        """Neo4j's own user log."""
        return self.home / "logs" / "neo4j.log"

    @property
    def console_file(self) -> Path:
        """The server's stdout and stderr."""
        return self.home / "logs" / "console.log"

    def _state(self) -> dict:
        return read_json(self.home / "instance.json") or {}

    def _credentials(self) -> dict | None:
        return read_json(self.home / "credentials.json")

    @property
    def uri(self) -> str | None:
        """Bolt URI of this instance once it has been configured."""
        port = self._state().get("port")
        return f"bolt://127.0.0.1:{port}" if port else None

    def pid(self) -> int | None:
        """Process id of the running server, or None."""
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if pid_alive(pid, self._marker) else None

    def _info(self, pid: int | None, version: str | None = None) -> ConnectionInfo:
        creds = self._credentials() or {}
        return ConnectionInfo(
            self.uri or "", creds.get("user", "neo4j"), creds.get("password", ""), "neo4j", "local",
            pid=pid, data_dir=self.home, server_version=version,
        )

    # -- lifecycle ------------------------------------------------------------------------------

    def running_info(self) -> ConnectionInfo | None:
        """Connection info when this instance runs and answers, else None."""
        pid = self.pid()
        if pid is None or self.uri is None:
            return None
        info = self._info(pid)
        try:
            version = check_server(info.uri, info.user, info.password, self.settings.connect_timeout_s)
        except DatabaseUnavailable:
            return None
        return self._info(pid, version)

    def ensure_distribution(self) -> Path:
        """Return the lib directory of the Neo4j jars, fetching them into the cache on first use."""
        requested = self.settings.neo4j_version
        if requested and not re.fullmatch(r"\d{1,4}\.\d{1,2}\.\d{1,3}", requested):  # it names a directory and a pom
            raise ConfigError(f"CREDO_NEO4J_VERSION={requested!r} is not a Neo4j release such as {PINNED_VERSION}")
        if requested and not dist.server_supported(requested):
            raise ConfigError(
                f"CREDO_NEO4J_VERSION={requested} is older than Neo4j {dist.MIN_SERVER_TEXT}, the first whose vector "
                f"index filters inside its search; unset it or name a 2026.x release"
            )
        previous = self._state().get("version")
        if not requested and previous and dist.server_supported(previous):
            requested = previous
        versions = dist.candidate_versions(requested)
        if previous and not dist.server_supported(previous):
            self.progress(f"the instance in {self.home} was made by Neo4j {previous}; Neo4j {versions[0]} "
                          "opens its store in place (a one-way upgrade)")
        version, lib = dist.ensure_distribution(self.settings.cache_dir, versions, self.progress)
        self._version = version
        return lib

    def start(self) -> ConnectionInfo:
        """Start the server unless it already runs; wait until Bolt answers; return how to connect."""
        if (running := self._already_running()) is not None:
            return running
        java = dist.find_java()
        with file_lock(self.home):  # a concurrent `start` waits here, then finds this server running
            if (running := self._already_running()) is not None:
                return running
            # ports are the machine's, not the instance's: another instance starting at the same moment waits
            # here until this one holds its port, so two never pick the same free port (nor answer each other)
            with file_lock(self.settings.cache_dir / "ports"):
                return self._launch(java)

    def _already_running(self) -> ConnectionInfo | None:
        pid = self.pid()
        if pid is None:
            return None
        info = self._wait_until_answering(pid, None)
        self.progress(f"Neo4j is already running (pid {pid}) at {info.uri}")
        return info

    def _launch(self, java: Path) -> ConnectionInfo:
        lib = self.ensure_distribution()
        for sub in ("conf", "data", "logs", "plugins", "run"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        os.chmod(self.home, 0o700)
        creds = self._credentials()
        if creds is None:
            creds = {"user": "neo4j", "password": secrets.token_urlsafe(18)}
            write_private(self.home / "credentials.json", creds)
        port = self._choose_port()
        write_private(self.home / "instance.json", {"version": self._version, "port": port})
        self._write_config(port)
        if not (self.home / "data" / "dbms" / "auth.ini").is_file():
            self._set_initial_password(java, lib, creds["password"])
        began = time.monotonic()
        self.progress(f"starting Neo4j {self._version} on bolt://127.0.0.1:{port} (data in {self.home}) ...")
        with open(self.console_file, "ab") as console:
            process = subprocess.Popen(
                [str(java), *_JVM_FLAGS, self._marker, "-cp", f"{lib}/*", ENTRY_POINT,
                 f"--home-dir={self.home}", f"--config-dir={self.home / 'conf'}"],
                cwd=self.home, stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.pid_file.write_text(f"{process.pid}\n")
        try:
            info = self._wait_until_answering(process.pid, process)
        except ProvisioningError:  # nothing of a failed start is left running
            terminate(process.pid, self._marker, 10.0)
            self.pid_file.unlink(missing_ok=True)
            raise
        self.progress(f"Neo4j {info.server_version} is up (pid {process.pid}) in {time.monotonic() - began:.0f} s")
        return info

    def _choose_port(self) -> int:
        previous = self._state().get("port")
        for port in (previous, self.preferred_port):
            if port and port_is_free(port):
                return port
        port = free_port()
        self.progress(f"port {self.preferred_port} is taken; using port {port} instead")
        return port

    def _write_config(self, port: int) -> None:
        home = self.home
        lines = [
            "# Written by Credo on every start; edits here are overwritten.",
            f"server.bolt.listen_address=127.0.0.1:{port}",
            f"server.bolt.advertised_address=127.0.0.1:{port}",
            "server.http.enabled=false",
            "server.https.enabled=false",
            "dbms.usage_report.enabled=false",
            "server.memory.heap.initial_size=512m",
            "server.memory.heap.max_size=1g",
            "server.memory.pagecache.size=512m",
            *TX_LOG_SETTINGS,
            *(f"server.directories.{name}={home / name}" for name in ("data", "logs", "plugins", "run")),
        ]
        (home / "conf" / "neo4j.conf").write_text("\n".join(lines) + "\n")

    def _set_initial_password(self, java: Path, lib: Path, password: str) -> None:
        env = {**os.environ, "NEO4J_HOME": str(self.home), "NEO4J_CONF": str(self.home / "conf")}
        done = subprocess.run(
            [str(java), "-cp", f"{lib}/*", "org.neo4j.cli.AdminTool", "dbms", "set-initial-password", "--", password],  # "--": a password may start with "-"
            env=env, cwd=self.home, capture_output=True, text=True, timeout=300,
        )
        if done.returncode != 0:
            output = (done.stdout + done.stderr).strip()
            first = output.splitlines()[0] if output else "no output"
            raise ProvisioningError(f"could not set the initial Neo4j password: {first}", detail=output)

    def _wait_until_answering(self, pid: int, process: subprocess.Popen | None) -> ConnectionInfo:
        info = self._info(pid)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            exited = process.poll() if process is not None else None
            if exited is not None or not pid_alive(pid, self._marker):
                self.pid_file.unlink(missing_ok=True)
                raise self._start_failure(f"Neo4j exited during start (exit code {exited})")
            try:
                version = check_server(info.uri, info.user, info.password, 2.0)
                return self._info(pid, version)
            except DatabaseUnavailable as exc:
                if "authentication failed" in exc.reason:
                    raise ProvisioningError(
                        f"the local Neo4j at {info.uri} rejected the password in {self.home / 'credentials.json'}",
                    ) from exc
            if time.monotonic() > deadline:
                terminate(pid, self._marker, 10.0)
                self.pid_file.unlink(missing_ok=True)
                raise self._start_failure(f"Neo4j did not answer on {info.uri} within {START_TIMEOUT_S:.0f} s")
            time.sleep(0.5)

    def _start_failure(self, headline: str) -> ProvisioningError:
        lines = tail(self.log_file, 400) or tail(self.console_file, 400)
        readable = [line for line in lines if not line.startswith("\t")]  # drop stack frames
        causes = [line for line in readable if line.startswith("Caused by:")]
        errors = [line for line in readable if " ERROR " in line or "Exception" in line]
        cause = (causes or errors or readable or ["no log output"])[-1].removeprefix("Caused by:").strip()
        return ProvisioningError(
            f"{headline}: {cause[:300]} (see {self.log_file})", detail="\n".join(readable[-20:]) or None
        )

    def stop(self, timeout: float = 60.0) -> bool:
        """Stop the server (SIGTERM, then SIGKILL after `timeout`); return whether one was running."""
        pid = self.pid()
        if pid is None:
            self.pid_file.unlink(missing_ok=True)
            return False
        self.progress(f"stopping Neo4j (pid {pid}) ...")
        with file_lock(self.home):
            terminate(pid, self._marker, timeout)
        if pid_alive(pid, self._marker):
            raise ProvisioningError(f"Neo4j (pid {pid}) did not stop, even after SIGKILL")
        self.pid_file.unlink(missing_ok=True)
        return True

    # -- reporting ------------------------------------------------------------------------------

    def status(self) -> dict:
        """URI, server version, pid, running flag and data directory of this instance."""
        pid = self.pid()
        version = None
        if pid is not None and self.uri:
            creds = self._credentials() or {}
            try:
                version = check_server(
                    self.uri, creds.get("user", "neo4j"), creds.get("password"), self.settings.connect_timeout_s
                )
            except DatabaseUnavailable:
                pass
        return {
            "uri": self.uri,
            "server_version": version or self._state().get("version"),
            "pid": pid,
            "running": pid is not None,
            "answering": version is not None,
            "data_dir": str(self.home),
            "log_file": str(self.log_file),
        }

    def logs(self, lines: int = 50) -> str:
        """The last `lines` lines of neo4j.log (console.log when Neo4j wrote no log yet)."""
        return "\n".join(tail(self.log_file, lines) or tail(self.console_file, lines))

    def env_lines(self) -> list[str]:
        """Shell `export` lines that point Credo (and other tools) at this instance."""
        creds = self._credentials()
        if self.uri is None or creds is None:
            raise ProvisioningError("the local Neo4j has never been started; run `credo neo4j start` first")
        values = {
            "NEO4J_URI": self.uri, "NEO4J_USER": creds["user"],
            "NEO4J_PASSWORD": creds["password"], "NEO4J_DATABASE": "neo4j",
        }
        return [f"export {name}={shlex.quote(value)}" for name, value in values.items()]
