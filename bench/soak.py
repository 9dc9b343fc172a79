"""Issue 28 item 4: a soak — mixed load through HTTP for a long while, with memory and latency reported per window
and checked against documented bounds.

    .venv/bin/python bench/soak.py --minutes 30 [--window 5] [--clients 4] [--out FILE]

A private local Neo4j (its own data directory, removed at the end) unless NEO4J_URI names one; one `credo serve`
(CREDO_AUTH on, a key for a fresh tenant made at setup, the default embedder loaded before the clock starts); then
`--clients` threads over HTTP issue writes (add_fact, succeed_fact, a conversation turn ingested then `remember`, and
where the default policy surfaces the write, the person's yes ingested and relayed with `consent`) and reads (search,
context, facts as of a past known time, why). The first `--warmup` seconds (and at least 25 calls a client) are not
measured. Per window: RSS of `serve` and of the Neo4j Java process (/proc/<pid>/status VmRSS, sampled every 5 s),
p50/p95/p99 of reads and of writes, operation counts and errors (any non-2xx answer or transport error; the first
bodies are printed). A progress line every 30 s; at the end a markdown table, printed and written to --out; the exit
status is 1 when a bound broke, each broken bound named.

The bounds (from 10-minute soaks, 2-minute windows, 4 clients, on the shared 2-core VM at load 8-20: journal,
"issue 28 item 4"):
- **serve RSS** in the last window ≤ 1.25 × its RSS at the end of the first window + 50 MB. The first window holds
  the warm-up (the embedder's ONNX session and its arena, the driver's pool, uvicorn's buffers); after it a leak is a
  slope. Measured (two runs): 419 / 422 MB at the end of the first window, 427 / 435 MB at the last, 1 / 2 MB over
  the last 4 minutes. The bound (574 / 578 MB there) catches a steady leak of 5 MB a minute over 30 minutes and
  leaves room for what `serve` keeps in proportion to the data (a 30-minute run writes three times a 10-minute
  one's).
- **Neo4j RSS**, the highest sample, ≤ its configured heap max + page cache (read from the neo4j.conf its command
  line names; ops/provision.py writes 1 g + 512 m) + 768 MB for what the JVM holds beside them (metaspace, code
  cache, thread stacks, Netty's direct buffers, GC structures). Measured: 887 / 890 MB at the end of the first
  window, rising 20-25 MB a minute to a peak of 1,039 / 1,061 MB as the heap grows from its initial 512 MB towards
  its 1 GB maximum; the budget (2,304 MB) is what the configuration lets it hold, so a breach is memory it holds
  beyond what it was given. Not checked when the server's process or configuration is not visible from here (a
  remote NEO4J_URI or a container).
- **latency**: for reads and for writes, p50 and p99: the median over the later half of the windows of each
  window's percentile ≤ 2 × (p50) or 3 × (p99) the same median over the earlier half + 20 ms. The machine is shared
  (other engineers' suites and servers): one window's p99 can double from a neighbour's burst, so no single window
  is compared with another; a real slowdown (an index that stops being used, a cache that grows without bound)
  moves the whole later half. The 20 ms floor keeps a 3 ms p50 from failing on a 7 ms neighbour's minute.
  Measured: the first window is the slowest in both runs (read p99 4.8 / 2.6 s, write p99 12.6 / 3.8 s: the server
  still compiling under load 8-20, though warmed); the later ones' p50 within 1.5× of each other (reads 35-69 ms,
  writes 117-262 ms) but their p99 within 3.6× (reads 0.17-0.60 s, writes 0.39-1.05 s in one run, following the
  machine's load: the p99 of a window is its few slowest calls, set by a neighbour's burst), hence 3× for p99. With
  5-minute windows over 30 minutes the median of the earlier three leaves the warm-up-heavy first one out.
- **errors**: none.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack, contextmanager
from pathlib import Path

from credo.ops.serve_process import embedder_ready, serving
from server_cpu import _listening_pid
from soak_load import Client, Recorder, Shared
from soak_report import MB, Limits, Window, check, table, write

JVM_MARGIN_MB = 768
SAMPLE_S, PROGRESS_S = 5.0, 30.0


def rss(pid: int | None) -> int | None:
    """Resident set size of a process in bytes (VmRSS), None when it is gone or not visible."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _size_mb(text: str) -> float:
    number, unit = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)[bB]?\s*", text).groups()
    return float(number) * {"": 1 / MB, "k": 1 / 1024, "m": 1, "g": 1024}[unit.lower()]


def neo4j_budget_mb(pid: int | None) -> float | None:
    """Heap max + page cache of the Neo4j process (from the neo4j.conf its --config-dir names) + the JVM margin."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        conf_dir = next(a.split("=", 1)[1] for a in args if a.startswith("--config-dir="))
        conf = dict(line.split("=", 1) for line in (Path(conf_dir) / "neo4j.conf").read_text().splitlines()
                    if "=" in line and not line.startswith("#"))
        return (_size_mb(conf["server.memory.heap.max_size"]) + _size_mb(conf["server.memory.pagecache.size"])
                + JVM_MARGIN_MB)
    except (OSError, StopIteration, KeyError, AttributeError, TypeError):
        return None


@contextmanager
def neo4j(scratch: Path):
    """(uri, user, password, database, pid): NEO4J_URI's server, else a private local one stopped at the end."""
    from credo.ops.provision import LocalNeo4j
    from credo.settings import Settings

    settings = Settings()
    if settings.neo4j_uri:
        yield (settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password or "", settings.neo4j_database,
               _listening_pid(settings.neo4j_uri))
        return
    private = Settings(data_dir=scratch / "data", instance=os.environ.get("CREDO_INSTANCE", "soak"))
    server = LocalNeo4j(private, progress=lambda m: print(m, flush=True))
    info = server.start()
    try:
        yield info.uri, info.user, info.password, info.database, info.pid
    finally:
        server.stop()


def make_key(uri: str, user: str, password: str, database: str) -> tuple[str, str]:
    """Migrate, and make an operator key for a fresh tenant: (tenant, secret)."""
    from credo.graph.core.db import Database
    from credo.ops.migrate import migrate
    from credo.services.access import api_keys

    db = Database(uri, user, password, database, timeout_s=30)
    try:
        migrate(db)
        tenant = f"soak_{uuid.uuid4().hex[:8]}"
        return tenant, api_keys.create_key(db, tenant=tenant, name="soak", scopes=["operator"]).secret
    finally:
        db.close()


@contextmanager
def serve(env: dict[str, str], log: Path, *, timeout_s: float = 300):
    """`credo serve` on a free port, answering /health with its embedder ready: (url, pid); SIGINT at the end."""
    with serving(env, log=log, timeout_s=timeout_s, args=["--no-first-key"], ready=embedder_ready, grace_s=30,
                 poll_s=0.5) as server:
        yield server.url, server.pid


def drive(url: str, key: str, *, seconds: float, window_s: float, clients: int, pids: tuple[int, int | None],
          warmup_s: float, say=print) -> tuple[list[Window], list[str]]:
    """Run the clients for `warmup_s` unmeasured, then for `seconds`, rolling a window every `window_s`: the windows
    (a warm-up error counts in the first) and the first error bodies."""
    serve_pid, neo4j_pid = pids
    recorder, shared, stop = Recorder(Window(-1, 0.0, 0.0)), Shared(), threading.Event()
    threads = [threading.Thread(target=Client(n, url, key, recorder, shared, stop).run, daemon=True)
               for n in range(clients)]
    for t in threads:
        t.start()
    # the server's first plans and the embedder's first batches are not what a soak measures: at least `warmup_s`,
    # and until each client made 25 calls (a cold server on a busy machine answers its first calls in seconds: the
    # first 10-minute run, warmed for 30 s only, had a first window's write p99 of 12.6 s against 0.7-1.0 s after)
    began = time.monotonic()
    while time.monotonic() - began < warmup_s or (
            sum(recorder.window.ops.values()) < 25 * clients and time.monotonic() - began < 10 * max(warmup_s, 10)):
        time.sleep(0.2)
    warm = recorder.roll(Window(0, 0.0, min(window_s, seconds)))
    recorder.window.errors = warm.errors
    say(f"warm-up: {len(warm.reads)} reads, {len(warm.writes)} writes, {warm.errors} errors in "
        f"{time.monotonic() - began:.0f} s", flush=True)
    started = time.monotonic()
    windows: list[Window] = []
    next_sample = next_progress = 0.0
    while True:
        elapsed = time.monotonic() - started
        current = recorder.window
        if elapsed >= next_sample:
            with recorder.lock:
                for pid, samples in ((serve_pid, current.serve_rss), (neo4j_pid, current.neo4j_rss)):
                    if (value := rss(pid)) is not None:
                        samples.append(value)
            next_sample += SAMPLE_S
        if elapsed >= current.end_s:
            for pid, samples in ((serve_pid, current.serve_rss), (neo4j_pid, current.neo4j_rss)):
                if (value := rss(pid)) is not None:
                    samples.append(value)  # the window's end value
            if current.end_s >= seconds:
                stop.set()
                windows.append(recorder.roll(Window(-1, seconds, seconds)))  # calls finishing late are not counted
                break
            windows.append(recorder.roll(Window(current.index + 1, current.end_s,
                                                min(current.end_s + window_s, seconds))))
        if elapsed >= next_progress and elapsed > 0:
            done = windows + [recorder.window]
            served, held = rss(serve_pid), rss(neo4j_pid)
            say(f"[{elapsed:5.0f} s] window {recorder.window.index + 1}: "
                f"{sum(len(w.reads) for w in done)} reads, {sum(len(w.writes) for w in done)} writes, "
                f"{sum(w.errors for w in done)} errors; serve {served / MB if served else 0:.0f} MB, "
                f"Neo4j {held / MB if held else 0:.0f} MB", flush=True)
            next_progress += PROGRESS_S
        time.sleep(0.2)
    for t in threads:
        t.join(timeout=90)
    return windows, recorder.bodies


def soak(argv: list[str] | None = None) -> tuple[list[Window], list, str]:
    """Run the soak: its windows, the bounds checked, and the report text (also printed, and written to --out)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--window", type=float, default=5.0, help="minutes per window")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--warmup", type=float, default=30.0, help="seconds of unmeasured load before the clock")
    parser.add_argument("--out", default=None, help="also write the markdown report here")
    args = parser.parse_args(argv)
    seconds, window_s = round(args.minutes * 60), round(args.window * 60)
    with ExitStack() as stack:
        scratch = Path(tempfile.mkdtemp(prefix="credo-soak-"))
        stack.callback(shutil.rmtree, scratch, ignore_errors=True)
        uri, user, password, database, neo4j_pid = stack.enter_context(neo4j(scratch))
        tenant, key = make_key(uri, user, password, database)
        env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
        env.update(NEO4J_URI=uri, NEO4J_USER=user, NEO4J_PASSWORD=password, NEO4J_DATABASE=database,
                   CREDO_AUTH="on", CREDO_TENANT=tenant)
        env.setdefault("HF_HUB_OFFLINE", "1")
        url, serve_pid = stack.enter_context(serve(env, scratch / "serve.log"))
        print(f"soak: {args.clients} clients for {seconds} s ({window_s} s windows) against {url} (tenant {tenant}); "
              f"serve pid {serve_pid}, Neo4j pid {neo4j_pid}", flush=True)
        windows, bodies = drive(url, key, seconds=seconds, window_s=window_s, clients=args.clients,
                                pids=(serve_pid, neo4j_pid), warmup_s=args.warmup)
        limits = Limits(neo4j_budget_mb=neo4j_budget_mb(neo4j_pid))
    bounds = check(windows, limits)
    text = table(windows, bounds, title=f"soak: {args.minutes:g} min, {args.clients} clients, "
                                        f"{window_s} s windows, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC")
    if bodies:
        text += "\nfirst errors:\n" + "\n".join(f"- {b}" for b in bodies) + "\n"
    print(text, flush=True)
    write(text, args.out)
    return windows, bounds, text


def main(argv: list[str] | None = None) -> int:
    """The soak; 1 when a bound broke (each named), else 0."""
    _, bounds, _ = soak(argv)
    broken = [b for b in bounds if b.held is False]
    for b in broken:
        print(f"BOUND BROKEN: {b.name}: {b.measured}, limit {b.limit}", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
