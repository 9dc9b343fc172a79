"""The benchmarks' plumbing: CPU seconds of this process and of a local Neo4j server (what a run spent where, and
whether the server is at rest: an index merge or population still running after a bulk write competes with what is
timed next), and a batched bulk statement run once."""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path


class Cpu:
    """CPU seconds (user + system) of this process and, when NEO4J_URI names a loopback port served by a process of
    this machine, of that Neo4j server (found through /proc; None when it cannot be seen)."""

    def __init__(self, uri: str) -> None:
        self.server_pid = _listening_pid(uri)

    @staticmethod
    def client() -> float:
        """CPU seconds (user + system) this process has used."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    def server(self) -> float | None:
        """CPU seconds the local Neo4j server has used, or None when it is not visible from here."""
        if self.server_pid is None:
            return None
        try:
            fields = Path(f"/proc/{self.server_pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def timed(self, fn) -> dict[str, float | None]:
        """Wall, client CPU and server CPU seconds of `fn()`."""
        s0, c0, t0 = self.server(), self.client(), time.perf_counter()
        fn()
        s1 = self.server()
        return {"wall": time.perf_counter() - t0, "client": self.client() - c0,
                "server": None if s0 is None or s1 is None else s1 - s0}


def _listening_pid(uri: str) -> int | None:
    """The pid of the local process listening on the URI's port (loopback URIs only), or None."""
    from urllib.parse import urlparse

    parsed = urlparse(uri)
    if parsed.hostname not in ("127.0.0.1", "localhost", "::1") or not parsed.port:
        return None
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == parsed.port:  # 0A = LISTEN
                inodes.add(f"socket:[{cols[9]}]")
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if any(os.readlink(fd) in inodes for fd in (proc / "fd").iterdir()):
                return int(proc.name)
        except OSError:
            continue
    return None


def wait_quiet(cpu: Cpu, *, busy: float = 0.15, window_s: float = 1.0, timeout_s: float = 180.0) -> float:
    """Wait until the server spends under `busy` CPU seconds per second over a `window_s` window (its background
    index work after a bulk write is over), at most `timeout_s`; the seconds waited (0 when the server is not
    visible from here)."""
    started = time.perf_counter()
    if cpu.server() is None:
        return 0.0
    while time.perf_counter() - started < timeout_s:
        before = cpu.server()
        time.sleep(window_s)
        after = cpu.server()
        if before is None or after is None or (after - before) / window_s < busy:
            break
    return time.perf_counter() - started


def run_once(db, query, **params) -> None:
    """Run a batched bulk statement (CALL ... IN TRANSACTIONS) as one auto-commit query, not retried: a bulk CREATE
    run again after some batches committed would break a uniqueness rule (Database.run_schema_query retries, for
    idempotent statements only)."""
    with db._driver.session(database=db.database) as session:
        session.run(getattr(query, "body", query.text), params).consume()
