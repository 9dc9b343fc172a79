"""Process, port and file helpers for the local Neo4j: small, OS-facing, no Neo4j knowledge."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ENTRY_POINT = "org.neo4j.server.Neo4jCommunity"  # Neo4j 2026.x Community


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """True when nothing listens on `host:port` (binding as the server would, with SO_REUSEADDR)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    """A port the kernel considers free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def pid_alive(pid: int, marker: str | None = None) -> bool:
    """True when `pid` runs and is not a zombie; with `marker`, its command line must contain it."""
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)  # reap our own exited child so it stops looking alive
        if reaped == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return marker is None
    proc = Path(f"/proc/{pid}")
    if not proc.is_dir():
        return True  # no procfs (macOS): trust the signal probe
    try:
        if _is_zombie(proc):
            _reap(pid)  # it may have died after the waitpid above; leave no zombie of ours behind
            return False
        if marker is not None:
            cmdline = proc.joinpath("cmdline").read_bytes()
            # empty while the process is between fork and exec (or re-exec): alive, not yet recognisable
            return not cmdline or marker in cmdline.replace(b"\0", b" ").decode(errors="replace")
    except (OSError, IndexError):
        return False
    return True


def _is_zombie(proc: Path) -> bool:
    """A whole-process zombie: state Z with no thread left (a JVM whose main thread ended shows Z while running)."""
    fields = dict(line.split(":", 1) for line in proc.joinpath("status").read_text().splitlines() if ":" in line)
    return fields.get("State", "").strip().startswith("Z") and fields.get("Threads", "1").strip() == "1"


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def terminate(pid: int, marker: str, timeout: float) -> None:
    """SIGTERM the process group of `pid`, then SIGKILL it after `timeout` seconds; reap it if it was our child."""
    try:
        _signal_until_gone(pid, marker, timeout)
    finally:
        _reap(pid)


def _signal_until_gone(pid: int, marker: str, timeout: float) -> None:
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10.0)):
        if not pid_alive(pid, marker):
            return
        try:
            os.killpg(pid, sig)  # started with start_new_session, so the group id is the pid
        except (ProcessLookupError, PermissionError):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if not pid_alive(pid, marker):
                return
            time.sleep(0.2)


def tail(path: Path, lines: int) -> list[str]:
    """The last `lines` lines of a text file, or nothing when it does not exist."""
    try:
        with open(path, errors="replace") as handle:
            return [line.rstrip("\n") for line in deque(handle, maxlen=lines)]
    except OSError:
        return []


def write_private(path: Path, payload: dict) -> None:
    """Write JSON readable by the owner only (mode 0600), never briefly world-readable."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump(payload, handle, indent=2)


def read_json(path: Path) -> dict | None:
    """Parsed JSON object, or None when the file is absent or unreadable."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


@contextmanager
def file_lock(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on `directory/.lock` so two processes never work there at once."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
