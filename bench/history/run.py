"""A history run: concurrent clients over HTTP against two `credo serve` on one Neo4j while a nemesis kills them.

    python bench/history/run.py --minutes 20 [--seconds N] [--clients 8] [--tenants 2] [--seed N] [--out DIR]

Without NEO4J_URI it provisions a private local Neo4j (its own instance name and data directory under --out, never
the user's) and the nemesis kills it too; with NEO4J_URI it uses that server and kills no Neo4j (serve faults only).
It runs `credo db migrate`, starts two `credo serve` (CREDO_AUTH on), makes one or two tenants with their keys and the
functional predicate, runs the clients and the nemesis, lets every process come back, collects the final state, and
writes history.jsonl, final.json and faults.json to --out. Then it calls `bench.history.checker.check`, prints the
operations by kind and outcome, the faults by kind and each violation on a line, and exits 1 on any violation.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import httpx  # noqa: E402

from bench.history.clients import PREDICATE, Client, History, Registry, Tenant  # noqa: E402
from bench.history.collect import collect  # noqa: E402
from bench.history.nemesis import Fault, Nemesis  # noqa: E402
from bench.history.records import Op, dump_final, dump_ops  # noqa: E402
from credo.ops.serve_process import CREDO, ServeProcess  # noqa: E402


@dataclass
class Outcome:
    """What a run produced (the test reads it)."""

    out: Path
    ops: list[Op]
    final: object
    faults: list[Fault]
    violations: list | None  # None: the checker is not there yet


def _say(message: str) -> None:
    print(f"[{datetime.now(timezone.utc):%H:%M:%S}] {message}", flush=True)


def _neo4j(out: Path, instance: str | None, private: bool):
    """(local or None, uri, user, password, database): NEO4J_URI when given (and not `private`), else a private
    local instance."""
    if os.environ.get("NEO4J_URI") and not private:
        return (None, os.environ["NEO4J_URI"], os.environ.get("NEO4J_USER", "neo4j"),
                os.environ.get("NEO4J_PASSWORD", ""), os.environ.get("NEO4J_DATABASE", "neo4j"))
    from credo.ops import provision
    from credo.settings import Settings

    provision.START_TIMEOUT_S = 600.0  # recovery after SIGKILL on a busy machine can be slow
    settings = Settings(neo4j_uri=None, data_dir=out / "neo4j", use_docker=False,
                        instance=instance or f"history-{uuid.uuid4().hex[:8]}", connect_timeout_s=3.0)
    local = provision.LocalNeo4j(settings, progress=_say)
    info = local.start()
    return local, info.uri, info.user, info.password, info.database


def _setup_tenants(db, servers: list[str], count: int) -> tuple[list[Tenant], dict[str, str]]:
    """Fresh tenants, each with a client key (read, curate, forget) and an admin key (the ledger), and the predicate."""
    from credo.services.access import api_keys

    run = uuid.uuid4().hex[:8]
    tenants, admin = [], {}
    for i in range(count):
        name = f"h{run}_{i}"
        key = api_keys.create_key(db, tenant=name, name="history", scopes=["read", "curate", "forget"])
        admin[name] = api_keys.create_key(db, tenant=name, name="history-admin", scopes=["read", "admin"],
                                          clearance="all").secret
        answer = httpx.post(f"{servers[0]}/v1/predicates", headers={"X-API-Key": key.secret}, timeout=60,
                            json={"name": PREDICATE, "cardinality": "single"})
        answer.raise_for_status()
        tenants.append(Tenant(name=name, key=key.secret))
    warm = api_keys.create_key(db, tenant=f"h{run}_warm", name="history-warm", scopes=["read", "curate"])
    for server in servers:  # each server's first write and read (plans, pools) before the history starts
        headers = {"X-API-Key": warm.secret}
        httpx.post(f"{server}/v1/facts", headers=headers, timeout=180, json={
            "subject": "warm", "predicate": "note", "object": server, "object_is_entity": False}).raise_for_status()
        httpx.get(f"{server}/v1/facts", headers=headers, timeout=180, params={"subject": "warm"}).raise_for_status()
    return tenants, admin


def run(*, seconds: float, clients: int = 8, tenants: int = 2, seed: int | None = None, out: Path | None = None,
        instance: str | None = None, gap_s: tuple[float, float] = (20.0, 60.0), first_fault_s: float | None = None,
        pause_s: tuple[float, float] = (1.0, 5.0), kinds: tuple[str, ...] = ("serve", "neo4j"), shuffle: bool = True,
        private: bool = False, keep_data: bool = False, timeout_s: float = 10.0) -> Outcome:
    """One run; the records are written to `out` and returned. `private`: a private local Neo4j even when
    NEO4J_URI is set (the test suite's shared server is never killed)."""
    from credo.bootstrap import open_database
    from credo.settings import Settings

    seed = seed if seed is not None else int(time.time())
    out = Path(out or tempfile.mkdtemp(prefix="credo-history-"))
    out.mkdir(parents=True, exist_ok=True)
    _say(f"history run: {seconds:.0f} s, {clients} clients, {tenants} tenant(s), seed {seed}, out {out}")
    local, uri, user, password, database = _neo4j(out, instance, private)
    env = {**os.environ, "NEO4J_URI": uri, "NEO4J_USER": user, "NEO4J_PASSWORD": password,
           "NEO4J_DATABASE": database, "CREDO_AUTH": "on", "HF_HUB_OFFLINE": "1", "CREDO_CONNECT_TIMEOUT": "3",
           "CREDO_DATA_DIR": str(out / "credo")}
    servers: list[ServeProcess] = []
    try:
        subprocess.run([CREDO, "db", "migrate"], env=env, check=True, capture_output=True, timeout=600)
        servers = [ServeProcess(env, log=out / f"serve-{i}.log", args=["--no-first-key"], nice=10, new_session=True)
                   for i in range(2)]
        for server in servers:  # both start at once, then each is waited for
            server.launch()
        for server in servers:
            server.wait_ready()
        _say(f"two credo serve up: {', '.join(s.url for s in servers)}")
        db = open_database(Settings(neo4j_uri=uri, neo4j_user=user, neo4j_password=password,
                                    neo4j_database=database), start=False, migrate=False)
        try:
            made, admin = _setup_tenants(db, [s.url for s in servers], tenants)
        finally:
            db.close()
        history, stop, registries = History(), threading.Event(), {t.name: Registry() for t in made}
        started = datetime.now(timezone.utc)
        workers = [Client(n, [s.url for s in servers], made, registries, history, stop, seed=seed, started=started,
                          timeout_s=timeout_s) for n in range(clients)]
        threads = [threading.Thread(target=w.run, name=f"client-{w.number}", daemon=True) for w in workers]
        deadline = time.monotonic() + seconds
        nemesis = Nemesis(servers, local, stop, seed=seed, gap_s=gap_s, pause_s=pause_s, first_s=first_fault_s,
                          until=deadline - 5, kinds=kinds, shuffle=shuffle, log=_say)
        for t in threads:
            t.start()
        nemesis.start()
        began = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(min(10.0, max(0.0, deadline - time.monotonic())))
            counts = history.counts()
            _say(f"{time.monotonic() - began:5.0f} s: {len(history.ops)} operations "
                 f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}), {len(nemesis.faults)} fault(s)")
        stop.set()
        for t in threads:
            t.join(30)
        nemesis.join(900)  # a victim being restarted comes back first
        if nemesis.error is not None:
            raise RuntimeError(f"the nemesis failed: {nemesis.error!r}") from nemesis.error
        for server in servers:  # every process up again
            if server.proc is None or server.proc.poll() is not None:
                server.start()
        ops = sorted(history.ops, key=lambda op: op.completed or op.invoked)
        dump_ops(ops, out / "history.jsonl")
        (out / "faults.json").write_text(json.dumps([asdict(f) for f in nemesis.faults], default=str, indent=1))
        _say(f"collecting the final state ({sum(op.kind == 'read' and op.outcome == 'ok' for op in ops)} reads)")
        final = collect(ops, base_url=servers[0].url, neo4j=(uri, user, password, database),
                        keys={t.name: t.key for t in made}, admin_keys=admin)
        dump_final(final, out / "final.json")
        violations = check(ops, final)
        report(ops, nemesis.faults, violations)
        return Outcome(out=out, ops=ops, final=final, faults=nemesis.faults, violations=violations)
    finally:
        for server in servers:
            server.stop()
        if local is not None:
            local.stop(timeout=60)
            if not keep_data:
                shutil.rmtree(out / "neo4j", ignore_errors=True)


def check(ops: list[Op], final) -> list | None:
    """The checker's violations, or None (said on stdout) while `bench/history/checker.py` is missing."""
    try:
        from bench.history.checker import check as checker
    except ImportError:
        _say("the checker (bench/history/checker.py) is missing: the history is recorded but not checked")
        return None
    return checker(ops, final)


def report(ops: list[Op], faults: list[Fault], violations: list | None) -> None:
    """Operations by kind and outcome, faults by kind, each violation on a line."""
    by_kind = Counter((op.kind, op.outcome) for op in ops)
    print(f"operations: {len(ops)}")
    for kind in sorted({k for k, _ in by_kind}):
        print(f"  {kind:8} " + "  ".join(f"{o} {by_kind[(kind, o)]}" for o in ("ok", "refused", "unknown")))
    codes = Counter(op.code for op in ops if op.outcome != "ok")
    print("not ok, by code: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
    print(f"faults: {len(faults)} (" + ", ".join(f"{k} {n}" for k, n in Counter(f.kind for f in faults).items()) + ")")
    if violations is None:
        print("violations: not checked (no checker)")
        return
    print(f"violations: {len(violations)}")
    for v in violations:
        print(f"  {v.kind}: {v.message} [{', '.join(o.id if isinstance(o, Op) else str(o) for o in v.ops)}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=None, help="overrides --minutes")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--tenants", type=int, default=2, choices=(1, 2))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--instance", default=None, help="the private Neo4j instance's name (default history-<random>)")
    parser.add_argument("--gap", type=float, nargs=2, default=(20.0, 60.0), metavar=("MIN", "MAX"),
                        help="seconds between faults (uniform)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before an answer counts as lost (unknown)")
    parser.add_argument("--keep-data", action="store_true", help="keep the private Neo4j's data directory")
    args = parser.parse_args(argv)
    if args.instance and os.environ.get("NEO4J_URI"):
        parser.error("--instance names a private Neo4j, but NEO4J_URI is set: unset it or drop --instance")
    seconds = args.seconds if args.seconds is not None else args.minutes * 60
    outcome = run(seconds=seconds, clients=args.clients, tenants=args.tenants, seed=args.seed, out=args.out,
                  instance=args.instance, gap_s=tuple(args.gap), timeout_s=args.timeout, keep_data=args.keep_data)
    return 1 if outcome.violations else 0


if __name__ == "__main__":
    sys.exit(main())
