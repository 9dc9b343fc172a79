"""Issue 25 item 3: the embedding as LIST<FLOAT> or as the server's VECTOR type, and what the vector index's
quantization costs (size on disk, ingest, filtered SEARCH p50/p95, recall@10 against exact cosine).

    eval "$(credo neo4j env)"   # or any NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD (NEO4J_DATABASE, default neo4j)
    .venv/bin/python bench/bench_vector_type.py [--n 20000] [--recall 20000] [--queries 200] [--batch 1000]
                                                [--quantizations default,none,scalar] [--types list,vector]
                                                [--seed 25] [--keep]

Every configuration is a (type, quantization) pair with a label and a vector index of its own (`WITH [f.tenant,
f.known_from]`, 384 dims, cosine; `default` gives no quantization option, so the server's default applies — BINARY
on 2026.08 — `none` / `scalar` / `binary` set `vector.quantization.type`). The index exists before the first write,
as Credo's does. Two parts:

- speed and size: --n nodes with random unit vectors, 90% in tenant `big`, 10% in `small`, written in UNWIND
  batches of --batch rows shaped as Credo's write (`SET f = row.props`, the embedding inside the props map: a list
  of floats, or a driver `Vector` of FLOAT32 for the VECTOR type), the batches of one type's configurations
  interleaved (the same load for each); then --queries random unit vectors asked of each tenant through
  `SEARCH f IN (VECTOR INDEX … FOR $q WHERE f.tenant = $t LIMIT 10)`, each question asked of every configuration
  in a rotating order.
- recall: the first --recall usable YAGO11k rows (../shared/datasets/yago11k: 15,424 once rows whose end is not
  after their start are skipped, as `bench_bitemporal.load_yago` does) as "subject predicate object" statements,
  embedded with Credo's default embedder (all-MiniLM-L6-v2), 80% in tenant `x`, 20% in `y`; --queries distinct
  "predicate object" questions, embedded, each asked of one tenant (alternately); recall@10 = the share of the
  exact top 10 (brute-force cosine in numpy over the tenant's vectors) each index returns.

Size on disk: the database and transaction-log directories (from `SHOW SETTINGS` `server.directories.data`, so only
when the server is local), read after `CALL db.checkpoint()`: the growth of the property store's dynamic array file
(`neostore.propertystore.db.arrays`, where a 384-float list lives in the record formats), of the whole store
directory without `schema/`, and each index's own directory under `schema/index/` (found by its id). Run it on a
fresh instance: a store that had deletions reuses freed records, and the growth understates. (Transaction logs are
not counted: their files are preallocated, 256 MiB each.) The VECTOR type is written only where the store format
takes it, checked first by one probe write: Community's `aligned` and `standard` formats refuse it
(Neo.ClientError.Data.DataUnsupportedByStoreFormat), only Enterprise's `block` format (Aura's) stores it. Each
figure also prints the largest gap between a hit's SEARCH score and the exact (1 + cosine) / 2 of that node.
Everything the bench made is deleted at the end unless --keep.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import neo4j
import numpy as np
from neo4j.vector import Vector

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo.graph.core.vectors import Listed  # noqa: E402
from server_cpu import Cpu, wait_quiet  # noqa: E402

DIMS = 384


@dataclass(frozen=True)
class Config:
    """One (type, quantization) pair of one part of a run: its own label and vector index."""

    kind: str  # "list" or "vector"
    quant: str  # "default", "none", "scalar" or "binary"
    part: str  # "a" (speed and size) or "b" (recall)
    run: str

    @property
    def label(self) -> str:
        return f"Vt{self.part.upper()}{self.kind.title()}{self.quant.title()}_{self.run}"

    @property
    def index(self) -> str:
        return f"vt_{self.part}_{self.kind}_{self.quant}_{self.run}"

    @property
    def name(self) -> str:
        return f"{self.kind.upper()}/{self.quant}"


def driver_from_env() -> tuple[neo4j.Driver, str]:
    """A driver on NEO4J_URI and the database to use."""
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        sys.exit('NEO4J_URI is not set: run eval "$(credo neo4j env)" first')
    auth = (os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD", ""))
    return neo4j.GraphDatabase.driver(uri, auth=auth), os.environ.get("NEO4J_DATABASE", "neo4j")


class Server:
    """The configured server: auto-commit queries and settings."""

    def __init__(self, driver: neo4j.Driver, database: str) -> None:
        self.driver, self.database = driver, database

    def rows(self, cypher: str, **params) -> list[dict]:
        """The records of one query, as dicts."""
        return [r.data() for r in self.driver.execute_query(cypher, params, database_=self.database).records]

    def setting(self, name: str) -> str | None:
        """A server setting's value (None when it cannot be read, as on Aura)."""
        try:
            found = self.rows("SHOW SETTINGS YIELD name, value WHERE name = $name RETURN value", name=name)
        except neo4j.exceptions.Neo4jError:
            return None
        return found[0]["value"] if found else None

    def vector_storable(self) -> tuple[bool, str]:
        """Whether a VECTOR property can be stored here (the store format is checked at commit: one probe node is
        written, then deleted), and the server's word if not."""
        try:
            self.rows("CYPHER 25 CREATE (:VtProbe {e: vector([0.6, 0.8], 2, FLOAT32)})")
        except neo4j.exceptions.Neo4jError as exc:
            return False, exc.message or str(exc)
        self.rows("MATCH (n:VtProbe) DELETE n")
        return True, ""


class Disk:
    """Sizes of the store directory of a local server (None when not local), read once the store is checkpointed:
    by `CALL db.checkpoint()` where the server has it, else (Community has no such procedure) by stopping the local
    instance named by --restart-instance, reading the files, and starting it again."""

    def __init__(self, server: Server, instance: str | None) -> None:
        self.server, self.instance = server, instance
        data = server.setting("server.directories.data")
        store = Path(data) / "databases" / server.database if data else None
        self.store = store if store is not None and store.is_dir() else None

    @staticmethod
    def _bytes(path: Path) -> int:
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.exists() else 0

    def _credo(self, *words: str) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")} | {"CREDO_INSTANCE": self.instance}
        done = subprocess.run([str(Path(sys.executable).parent / "credo"), "neo4j", *words], env=env,
                              capture_output=True, text=True, check=True)
        return done.stdout

    def _checkpointed(self, read):
        if self.instance is None:
            self.server.rows("CALL db.checkpoint()")
            return read()
        self.server.driver.close()
        self._credo("stop")
        try:
            return read()
        finally:
            self._credo("start")
            env = dict(line.removeprefix("export ").split("=", 1) for line in self._credo("env").splitlines())
            os.environ.update({k: shlex.split(v)[0] for k, v in env.items()})
            self.server.driver, _ = driver_from_env()

    def sizes(self) -> dict[str, int] | None:
        """Bytes of the property store's array file, of the store without `schema/`, and of each index's folder."""
        if self.store is None:
            return None

        def read() -> dict:
            schema = self._bytes(self.store / "schema")
            out = {"arrays": (self.store / "neostore.propertystore.db.arrays").stat().st_size,
                   "store": self._bytes(self.store) - schema}
            for folder in (self.store / "schema" / "index").glob("*/*"):
                if folder.is_dir() and folder.name.isdigit():
                    out[f"index {folder.name}"] = self._bytes(folder)
            return out

        try:
            return self._checkpointed(read)
        except neo4j.exceptions.Neo4jError as exc:
            print(f"  no checkpoint on demand ({exc.message}): pass --restart-instance for sizes")
            self.store = None
            return None


def create_index(server: Server, cfg: Config) -> dict:
    """The configuration's vector index, online; its id and options as the server reports them."""
    quant = "" if cfg.quant == "default" else f", `vector.quantization.type`: '{cfg.quant}'"
    server.rows(f"CYPHER 25 CREATE VECTOR INDEX {cfg.index} FOR (f:{cfg.label}) ON f.embedding "
                f"WITH [f.tenant, f.known_from] OPTIONS {{indexConfig: {{`vector.dimensions`: {DIMS}, "
                f"`vector.similarity_function`: 'cosine'{quant}}}}}")
    server.rows("CALL db.awaitIndexes(300)")
    return server.rows("SHOW VECTOR INDEXES YIELD name, id, options WHERE name = $name RETURN id, options",
                       name=cfg.index)[0]


def write_query(cfg: Config) -> str:
    """One batch's write."""
    # the shape of cypher/core/create_fact_versions.cypher: every stored property (the embedding among them) in one map
    return (f"UNWIND $rows AS row CREATE (f:{cfg.label}) SET f = row.props, "
            "f.known_from = datetime(row.known_from), f.valid_from = datetime(row.valid_from)")


def rows_for(cfg: Config, ids: range, tenants: list[str], vectors: np.ndarray) -> Listed:
    """The rows of one batch, the embedding a list of floats or a FLOAT32 `Vector` by the configuration's type."""
    out = Listed()
    for i in ids:
        embedding = Vector(vectors[i].astype(">f4").tobytes(), "f32") if cfg.kind == "vector" \
            else Listed(vectors[i].tolist())
        out.append({"known_from": "2024-01-01T00:00:00Z", "valid_from": "2020-01-01T00:00:00Z",
                    "props": {"tenant": tenants[i], "fact_id": f"f_{cfg.run}_{i}", "version_id": f"v_{cfg.run}_{i}",
                              "statement": f"statement number {i}", "state": "active", "rank": 0,
                              "embedding": embedding}})
    return out


def ingest(server: Server, cfgs: list[Config], tenants: list[str], vectors: np.ndarray, batch: int) -> dict:
    """Write every row once per configuration, batches interleaved across the configurations; seconds per batch."""
    seconds: dict[Config, list[float]] = {c: [] for c in cfgs}
    with server.driver.session(database=server.database) as session:
        for b, start in enumerate(range(0, len(vectors), batch)):
            ids = range(start, min(start + batch, len(vectors)))
            for k in range(len(cfgs)):
                cfg = cfgs[(b + k) % len(cfgs)]
                rows = rows_for(cfg, ids, tenants, vectors)
                t = time.perf_counter()
                session.execute_write(lambda tx, q=write_query(cfg): tx.run(q, rows=rows).consume())
                seconds[cfg].append(time.perf_counter() - t)
    return seconds


def search_query(cfg: Config) -> str:
    """The filtered top-10 SEARCH of the configuration's index."""
    target = f"vector($q, {DIMS}, FLOAT32)" if cfg.kind == "vector" else "$q"
    return (f"CYPHER 25 MATCH (f:{cfg.label}) SEARCH f IN (VECTOR INDEX {cfg.index} FOR {target} "
            "WHERE f.tenant = $t LIMIT 10) SCORE AS s RETURN f.fact_id AS id, s")


def search(server: Server, cfgs: list[Config], queries: np.ndarray, tenant_of) -> tuple[dict, dict]:
    """Each question asked of every configuration (rotating order); ms per question and the (id, score)s found."""
    ms: dict[Config, list[float]] = {c: [] for c in cfgs}
    found: dict[Config, list[list[tuple[str, float]]]] = {c: [] for c in cfgs}
    with server.driver.session(database=server.database, default_access_mode=neo4j.READ_ACCESS) as session:
        for qi, q in enumerate(queries):
            vector, tenant = Listed(q.tolist()), tenant_of(qi)
            order = [cfgs[(qi + k) % len(cfgs)] for k in range(len(cfgs))]
            for cfg in order:
                t = time.perf_counter()
                ids = session.execute_read(lambda tx, c=search_query(cfg): [(r["id"], r["s"]) for r in
                                                                            tx.run(c, q=vector, t=tenant)])
                ms[cfg].append((time.perf_counter() - t) * 1000)
                found[cfg].append(ids)
    return ms, found


def exact_top(vectors: np.ndarray, tenants: list[str], queries: np.ndarray, tenant_of, run: str) -> list[set[str]]:
    """The exact top 10 ids by cosine among the asked tenant's vectors (all vectors are unit)."""
    members = {t: np.array([i for i, x in enumerate(tenants) if x == t]) for t in set(tenants)}
    out = []
    for qi, q in enumerate(queries):
        idx = members[tenant_of(qi)]
        scores = vectors[idx] @ q
        top = idx[np.argsort(-scores)[:10]]
        out.append({f"f_{run}_{i}" for i in top})
    return out


def pct(samples: list[float]) -> tuple[float, float]:
    """(p50, p95) of the samples (nearest rank)."""
    ordered = sorted(samples)
    return ordered[len(ordered) // 2], ordered[max(0, int(len(ordered) * 0.95 + 0.5) - 1)]


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random unit vectors."""
    v = rng.standard_normal((n, DIMS))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def yago_texts(n: int, queries: int, seed: int) -> tuple[list[str], list[str]]:
    """The statements of the first n usable YAGO11k rows and `queries` distinct "predicate object" questions."""
    from bench_bitemporal import load_yago

    folder = (Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "yago11k").resolve()
    loaded, _ = load_yago(folder, limit=None)
    loaded = loaded[:n]
    statements = [f"{r.subject} {r.predicate} {r.object}" for r in loaded]
    asked = sorted({f"{r.predicate} {r.object}" for r in loaded})
    random.Random(seed).shuffle(asked)
    return statements, asked[:queries]


def run_part(server: Server, disk: Disk, cfgs: list[Config], tenants: list[str], vectors: np.ndarray,
             queries: np.ndarray, tenant_of, batch: int, title: str) -> None:
    """Index, write, measure and print one part for its configurations."""
    print(f"\n== {title}: {len(vectors)} nodes x {len(cfgs)} configurations, {len(queries)} questions; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    info = {c: create_index(server, c) for c in cfgs}
    for c in cfgs:
        opts = info[c]["options"]["indexConfig"]
        print(f"  index {c.name}: quantization {opts.get('vector.quantization.type')}, expansion "
              f"{opts.get('vector.default_search_expansion_factor')}, provider {info[c]['options']['indexProvider']}")
    ingest_s: dict[Config, list[float]] = {}
    store: dict[str, dict[str, int] | None] = {}
    sizes = disk.sizes()
    for kind in dict.fromkeys(c.kind for c in cfgs):
        group = [c for c in cfgs if c.kind == kind]
        before = sizes
        ingest_s.update(ingest(server, group, tenants, vectors, batch))
        wait_quiet(Cpu(os.environ["NEO4J_URI"]))
        sizes = disk.sizes()
        store[kind] = None if before is None else {k: (sizes[k] - before[k]) // len(group) for k in ("arrays", "store")}
    wait_quiet(Cpu(os.environ["NEO4J_URI"]))
    exact = exact_top(vectors, tenants, queries, tenant_of, cfgs[0].run)
    search(server, cfgs, queries[:10], tenant_of)  # warm-up (the server may have just restarted)
    ms, found = search(server, cfgs, queries, tenant_of)
    base = cfgs[0]
    b50, _ = pct(ms[base])
    i50 = statistics.median(ingest_s[base])
    print(f"  ingest per batch of {batch} (p50 ms; ratio to {base.name}); search ms p50 / p95 (ratio p50 to "
          f"{base.name}); recall@10 vs exact cosine; largest score error (vs (1 + cos) / 2); index folder MB:")
    for c in cfgs:
        p50, p95 = pct(ms[c])
        recall = statistics.mean(len({i for i, _ in f} & e) / 10 for f, e in zip(found[c], exact))
        # the index's score against the exact one, (1 + cosine) / 2, of the same node
        drift = max((abs(sc - (1 + float(vectors[int(i.rsplit("_", 1)[1])] @ queries[qi])) / 2)
                     for qi, f in enumerate(found[c]) for i, sc in f), default=0.0)
        ib = None if sizes is None else sizes.get(f"index {info[c]['id']}")
        i_med = statistics.median(ingest_s[c])
        print(f"  {c.name:16} ingest {i_med * 1000:7.0f} ms ({i_med / i50:4.2f}x), total {sum(ingest_s[c]):6.1f} s"
              f" | search {p50:6.2f} / {p95:6.2f} ms ({p50 / b50:4.2f}x) | recall@10 {recall:.3f}"
              f" | score error max {drift:.1e}"
              f" | index {'n/a' if ib is None else f'{ib / 1e6:.1f}'} MB", flush=True)
    for kind, grown in store.items():
        if grown is None:
            print(f"  {kind.upper()}: store sizes n/a")
        else:
            print(f"  {kind.upper()} store growth per configuration: property array file {grown['arrays'] / 1e6:.1f} MB"
                  f" ({grown['arrays'] / len(vectors):.0f} B/node), store without indexes {grown['store'] / 1e6:.1f}"
                  f" MB ({grown['store'] / len(vectors):.0f} B/node)", flush=True)


def cleanup(server: Server, cfgs: list[Config]) -> None:
    """Drop the configurations' indexes and nodes."""
    for c in cfgs:
        server.rows(f"DROP INDEX {c.index} IF EXISTS")
        with server.driver.session(database=server.database) as session:
            session.run(f"MATCH (f:{c.label}) CALL (f) {{ DELETE f }} IN TRANSACTIONS OF 10000 ROWS").consume()


def main() -> int:
    """Run the parts asked for and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--recall", type=int, default=20_000, help="YAGO rows for the recall part (0: skip it)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--quantizations", default="default,none,scalar")
    parser.add_argument("--types", default="list,vector")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--restart-instance", metavar="NAME",
                        help="the local Credo instance serving NEO4J_URI: sizes are read with it stopped")
    args = parser.parse_args()
    driver, database = driver_from_env()
    server = Server(driver, database)
    disk = Disk(server, args.restart_instance)
    version = server.rows("CALL dbms.components() YIELD name, versions, edition RETURN versions[0] AS v, edition")[0]
    storable, why = server.vector_storable()
    kinds = [k for k in args.types.split(",") if k != "vector" or storable]
    print(f"{os.uname().nodename}, {os.cpu_count()} cores, load {os.getloadavg()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; Neo4j {version['v']} {version['edition']}, "
          f"db.format {server.setting('db.format')}, store dir {disk.store}")
    print(f"VECTOR property storable: {storable}" + ("" if storable else f" ({why})"))
    run = uuid.uuid4().hex[:6]
    quants = args.quantizations.split(",")
    made: list[Config] = []
    rng = np.random.default_rng(args.seed)
    try:
        if args.n:
            cfgs = [Config(k, q, "a", run) for k in kinds for q in quants]
            made += cfgs
            tenants = ["small" if i % 10 == 0 else "big" for i in range(args.n)]
            run_part(server, disk, cfgs, tenants, unit(rng, args.n), unit(rng, args.queries),
                     lambda qi: "small" if qi % 2 else "big", args.batch, "speed and size (random unit vectors)")
        if args.recall:
            from credo.services.adapters.embeddings import default_embedder

            statements, asked = yago_texts(args.recall, args.queries, args.seed)
            embedder = default_embedder()
            t = time.perf_counter()
            vectors = np.array(embedder.embed(statements), dtype=np.float64)
            queries = np.array(embedder.embed(asked), dtype=np.float64)
            print(f"\nembedded {len(statements)} statements and {len(asked)} questions in "
                  f"{time.perf_counter() - t:.0f} s", flush=True)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            queries /= np.linalg.norm(queries, axis=1, keepdims=True)
            cfgs = [Config(k, q, "b", run) for k in kinds for q in quants]
            made += cfgs
            tenants = ["y" if i % 5 == 0 else "x" for i in range(len(statements))]
            run_part(server, disk, cfgs, tenants, vectors, queries, lambda qi: "y" if qi % 2 else "x",
                     args.batch, "recall (YAGO11k statements, all-MiniLM-L6-v2)")
    finally:
        if not args.keep:
            cleanup(server, made)
        driver.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
