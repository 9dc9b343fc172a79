"""The floor: Credo's work done by the simplest correct Cypher, so benchmarks report a ratio, not a noisy absolute.

    .venv/bin/python bench/floor.py [--limit N] [--samples 500] [--dependents 10000]

Same node shape, labels and indexes as Credo (the migrated schema: range, uniqueness, full-text `fact_text` /
`entity_text`, the one filtered vector index `fact_search` of migration 0018 with each version's search keys), one
managed transaction per batch, no conflict rule,
no audit, no clock, no pydantic models. Importable, so the other benches print floor and ratio in the same run:

- `ingest(db, tenant, rows, batch, vectors=None)` -> seconds: per batch one `execute_write` running one query that
  MERGEs both entities, CREATEs the `:Fact` version (every property Credo writes, instants via `datetime()`) and
  its two `ABOUT` edges, and the search keys (schema/search.py search_keys); with `vectors` (one 384-d list per
  row) each version carries its `embedding`, so it enters `fact_search` — as in Credo.
- `pipelined(db, tenant, rows, batch, embed, vectors_alone=False)` -> seconds: the same ingest with the embedding in
  the loop, as Credo's `import_facts` runs it (batch n+1 embedded in a worker thread while batch n is written): the
  best share of the embedder's throughput a write can reach on this machine; `vectors_alone`: each batch writes only
  its vectors into a vector index (`vectors_only`), the least any store can write.
- `read_one(session, kind, tenant, row, at)` -> s: one such read (benches interleave it with Credo's own reads).
- `ingest_batch(session, tenant, rows, vectors=None)` -> s: one such batch (benches interleave it with Credo's).
- `reads(db, tenant, rows, samples, rng)` -> {"facts": [s, …], "holders": [s, …], "relations": [s, …]}: auto-commit
  as-of point reads by index seek (entity by `(tenant, norm)`, then `Fact(subject_id)` / `Fact(object_id)`; both
  for `relations`), returning four (six for relations) fields.
- `cascade(db, tenant, dependents, shape=LEVELS)` -> {"collect": s, "flag": s}: builds a premise with
  `dependents` transitive dependents on 8 levels (DEPENDS_ON, as bench_cascade.py shapes them; `shape=(10,)`:
  one level), then times one path query returning their ids and one transaction writing one `FLAGGED` edge per
  dependent to a `:Cascade` node.

Rows are `bench_bitemporal.Row`s (subject, predicate, object, valid_from, valid_to texts).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo.graph.facts.entities import normalise  # noqa: E402
from credo.graph.core.vectors import Vector  # noqa: E402
from credo.schema.names import normalise_predicate  # noqa: E402
from credo.schema.time import parse_point  # noqa: E402

INGEST = """
UNWIND $rows AS row
MERGE (s:Entity {tenant: $tenant, norm: row.s_norm})
  ON CREATE SET s.entity_id = row.s_id, s.name = row.s_name, s.kind = null, s.aliases = [], s.aliases_text = '',
                s.created_at = datetime($known)
MERGE (o:Entity {tenant: $tenant, norm: row.o_norm})
  ON CREATE SET o.entity_id = row.o_id, o.name = row.o_name, o.kind = null, o.aliases = [], o.aliases_text = '',
                o.created_at = datetime($known)
CREATE (f:Fact)
SET f = row.props, f.subject_id = s.entity_id, f.object_id = o.entity_id,
    f.valid_from = datetime(row.valid_from), f.valid_to = datetime(row.valid_to),
    f.known_from = datetime($known), f.verified_at = datetime($known)
SET f += {known_from_key: f.known_from.epochMillis, known_to_key: 9007199254740991,
          valid_from_key: coalesce(f.valid_from.epochMillis, -9007199254740991),
          valid_to_key: coalesce(f.valid_to.epochMillis, 9007199254740991), sensitivity_rank: 1}
CREATE (f)-[:ABOUT {role: 'subject', known_from: f.known_from}]->(s)
CREATE (f)-[:ABOUT {role: 'object', known_from: f.known_from}]->(o)
"""
FACTS = """
MATCH (e:Entity {tenant: $tenant, norm: $norm})
MATCH (f:Fact {subject_id: e.entity_id})
WHERE f.predicate = $predicate AND f.known_to IS NULL AND f.valid_from <= datetime($at)
  AND (f.valid_to IS NULL OR datetime($at) < f.valid_to)
RETURN f.fact_id AS fact_id, f.object_name AS object, toString(f.valid_from) AS vf, toString(f.valid_to) AS vt
"""
HOLDERS = """
MATCH (e:Entity {tenant: $tenant, norm: $norm})
MATCH (f:Fact {object_id: e.entity_id})
WHERE f.predicate = $predicate AND f.known_to IS NULL AND f.valid_from <= datetime($at)
  AND (f.valid_to IS NULL OR datetime($at) < f.valid_to)
RETURN f.fact_id AS fact_id, f.subject_name AS subject, toString(f.valid_from) AS vf, toString(f.valid_to) AS vt
"""
RELATIONS = """
MATCH (e:Entity {tenant: $tenant, norm: $norm})
CALL (e) {
  MATCH (f:Fact {subject_id: e.entity_id}) RETURN f
  UNION
  MATCH (f:Fact {object_id: e.entity_id}) RETURN f
}
WITH f WHERE f.known_to IS NULL AND f.valid_from <= datetime($at) AND (f.valid_to IS NULL OR datetime($at) < f.valid_to)
RETURN f.fact_id AS fact_id, f.subject_name AS subject, f.predicate AS predicate, f.object_name AS object,
       toString(f.valid_from) AS vf, toString(f.valid_to) AS vt
"""
LEVELS = (10, 40, 150, 400, 900, 1800, 2900, 3800)  # bench_cascade.py's shape of 10,000 dependents
BUILD_NODES = """
UNWIND $ids AS id
CREATE (:Fact {tenant: $tenant, fact_id: id, version_id: id, predicate: 'rule', statement: 'rule ' + id,
               state: 'active', known_from: datetime()})
"""
BUILD_EDGES = """
UNWIND $pairs AS pair
MATCH (d:Fact {version_id: pair[0]}), (p:Fact {version_id: pair[1]})
CREATE (d)-[:DEPENDS_ON {justification: pair[0], known_from: datetime()}]->(p)
"""
COLLECT = """
MATCH (p:Fact {version_id: $premise})<-[:DEPENDS_ON*1..]-(d:Fact)
RETURN collect(DISTINCT d.version_id) AS ids
"""
FLAG = """
CREATE (c:Cascade {tenant: $tenant, cascade_id: $cascade, known_from: datetime()})
WITH c
UNWIND $ids AS id
MATCH (f:Fact {version_id: id})
CREATE (f)-[:FLAGGED {state: 'stale', cause: $cause, known_from: c.known_from}]->(c)
"""


def _id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


def _instant(text: str | None, field: str) -> tuple[str | None, str | None]:
    if text is None:
        return None, None
    point, precision = parse_point(text, field)
    return point.isoformat(), precision


def _params(rows, vectors) -> list[dict]:
    out = []
    for i, r in enumerate(rows):
        predicate = normalise_predicate(r.predicate)
        vf, vfp = _instant(r.valid_from, "valid_from")
        vt, vtp = _instant(r.valid_to, "valid_to")
        props = {"tenant": None, "fact_id": _id("f"), "version_id": _id("v"), "subject_name": r.subject,
                 "predicate": predicate, "object_type": "entity", "object_value": r.object, "object_name": r.object,
                 "statement": f"{r.subject} {predicate} {r.object}", "scope_key": "{}", "kind": "semantic",
                 "evidence": "unknown", "epistemic": "confirmed", "state": "active"}
        if vfp:
            props["valid_from_precision"] = vfp
        if vtp:
            props["valid_to_precision"] = vtp
        if vectors is not None:
            props["embedding"] = Vector(vectors[i])
        out.append({"props": props, "valid_from": vf, "valid_to": vt, "s_norm": normalise(r.subject),
                    "s_name": r.subject, "s_id": _id("e"), "o_norm": normalise(r.object), "o_name": r.object,
                    "o_id": _id("e")})
    return out


def ingest_batch(session, tenant: str, rows, vectors: list[list[float]] | None = None, *,
                 fulltext: bool = True) -> float:
    """Seconds to write one batch of `rows` in one managed transaction of `session` (see `ingest`)."""
    started = time.perf_counter()
    params = _params(rows, vectors)
    for p in params:
        p["props"]["tenant"] = tenant
        if not fulltext:
            p["props"]["statement_unindexed"] = p["props"].pop("statement")
    text = INGEST if fulltext else INGEST.replace("s.name =", "s.name_unindexed =").replace(
        "o.name =", "o.name_unindexed =")
    known = datetime.now(timezone.utc).isoformat()
    session.execute_write(lambda tx: tx.run(text, rows=params, tenant=tenant, known=known).consume())
    return time.perf_counter() - started


def ingest(db, tenant: str, rows, batch: int, vectors: list[list[float]] | None = None, *,
           fulltext: bool = True) -> float:
    """Seconds to write `rows` in batches of `batch`, one managed transaction each (vectors given, if any); with
    `fulltext=False` the statement and names go under unindexed keys, so no full-text index entry is made."""
    started = time.perf_counter()
    with db._driver.session(database=db.database) as session:
        for i in range(0, len(rows), batch):
            ingest_batch(session, tenant, rows[i:i + batch], None if vectors is None else vectors[i:i + batch],
                         fulltext=fulltext)
    return time.perf_counter() - started


def _vector_names(tenant: str) -> tuple[str, str]:
    """(label, vector index) of a floor tenant's bare vector nodes (`vectors_only`), from a digest of its id."""
    digest = hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:20]
    return f"FloorV_{digest}", f"floor_vectors_{digest}"


def own_index(db, tenant: str) -> str:
    """Create (untimed) a vector index of the tenant's own for `vectors_only`'s bare nodes; its label."""
    label, index = _vector_names(tenant)
    db.run_schema(f"CREATE VECTOR INDEX {index} IF NOT EXISTS FOR (n:{label}) ON n.embedding "
                  "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', "
                  "`vector.quantization.type`: 'none'}}")
    db.run_schema(f"CALL db.awaitIndex('{index}', 300)")
    return label


VECTORS_ONLY = "UNWIND $vectors AS v CREATE (n:$($label) {tenant: $tenant}) SET n.embedding = v"


def vectors_only(session, tenant: str, label: str, vectors: list[list[float]]) -> float:
    """Seconds to write one batch of nodes holding nothing but a tenant and a vector into the label's vector index
    (`own_index`), one managed transaction: the least any store must write to make the vectors
    searchable through an index, the bound of the embedder-share argument (bench_embeddings.py)."""
    started = time.perf_counter()
    session.execute_write(lambda tx: tx.run(VECTORS_ONLY, vectors=Vector([Vector(v) for v in vectors]),
                                            label=label, tenant=tenant).consume())
    return time.perf_counter() - started


def pipelined(db, tenant: str, rows, batch: int, embed, *, vectors_alone: bool = False) -> tuple[float, float]:
    """(seconds, seconds the writer waited for vectors) to ingest `rows` with `embed(texts)` in the loop as
    import_facts runs it: batch n+1 embedded in a worker thread while batch n is written (indexes made untimed);
    `vectors_alone`: each batch writes only its vectors (`vectors_only`)."""
    from concurrent.futures import ThreadPoolExecutor

    labels = [own_index(db, tenant)] if vectors_alone else []
    chunks = [rows[i:i + batch] for i in range(0, len(rows), batch)]
    texts = [[f"{r.subject} {normalise_predicate(r.predicate)} {r.object}" for r in chunk] for chunk in chunks]
    waited = 0.0
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=1) as worker, db._driver.session(database=db.database) as session:
        pending = worker.submit(embed, texts[0])
        for n, chunk in enumerate(chunks):
            t0 = time.perf_counter()
            vectors = pending.result()
            waited += time.perf_counter() - t0
            if n + 1 < len(chunks):
                pending = worker.submit(embed, texts[n + 1])
            if vectors_alone:
                vectors_only(session, tenant, labels[0], vectors)
            else:
                ingest_batch(session, tenant, chunk, vectors)
    return time.perf_counter() - started, waited


def fulltext_share(db, rows, batch: int = 1000, rounds: int = 3) -> list[tuple[float, float]]:
    """(with, without) full-text index entries, facts/s, in `rounds` alternated ingests of `rows` at `batch`."""
    out = []
    for _ in range(rounds):
        pair = []
        for fulltext in (True, False):
            tenant = f"floor_{uuid.uuid4().hex[:8]}"
            pair.append(len(rows) / ingest(db, tenant, rows, batch, fulltext=fulltext))
            drop(db, tenant)
        out.append((pair[0], pair[1]))
    return out


READS = {"facts": (FACTS, "subject"), "holders": (HOLDERS, "object"), "relations": (RELATIONS, "subject")}


def read_one(session, kind: str, tenant: str, row, at: datetime) -> float:
    """Wall seconds of one auto-commit as-of `kind` read ("facts", "holders", "relations") of `row`'s entity at `at`."""
    text, entity = READS[kind]
    t0 = time.perf_counter()
    list(session.run(text, tenant=tenant, norm=normalise(getattr(row, entity)),
                     predicate=normalise_predicate(row.predicate), at=at.isoformat()))
    return time.perf_counter() - t0


def reads(db, tenant: str, rows, samples: int, rng: random.Random) -> dict[str, list[float]]:
    """Wall seconds of `samples` auto-commit as-of `facts`, `holders` and `relations` point reads each (after a
    warm-up)."""
    from bench_bitemporal import pick_point

    dated = [r for r in rows if r.start is not None]
    timings: dict[str, list[float]] = {"facts": [], "holders": [], "relations": []}
    with db._driver.session(database=db.database, default_access_mode="READ") as session:
        for name in READS:
            for n in range(samples + 20):
                row = rng.choice(dated)
                took = read_one(session, name, tenant, row, pick_point(rng, row)[0])
                if n >= 20:
                    timings[name].append(took)
    return timings


def cascade(db, tenant: str, dependents: int = 10_000, shape: tuple[int, ...] = LEVELS) -> dict[str, float]:
    """Build a premise with `dependents` transitive dependents (levels sized as `shape`, scaled); time collecting
    their ids and flagging each."""
    scale = dependents / sum(shape)
    levels = [[_id("v") for _ in range(max(1, round(n * scale)))] for n in shape]
    premise = _id("v")
    rng = random.Random(5)
    pairs = [[d, premise] for d in levels[0]]
    for upper, lower in zip(levels, levels[1:]):
        pairs += [[d, rng.choice(upper)] for d in lower]
    every = [premise] + [v for level in levels for v in level]
    for i in range(0, len(every), 5000):
        db._driver.execute_query(BUILD_NODES, ids=every[i:i + 5000], tenant=tenant, database_=db.database)
    for i in range(0, len(pairs), 5000):
        db._driver.execute_query(BUILD_EDGES, pairs=pairs[i:i + 5000], database_=db.database)
    t0 = time.perf_counter()
    ids = db._driver.execute_query(COLLECT, premise=premise, database_=db.database, routing_="r").records[0]["ids"]
    collect = time.perf_counter() - t0
    t0 = time.perf_counter()
    with db._driver.session(database=db.database) as session:
        session.execute_write(lambda tx: tx.run(FLAG, tenant=tenant, cascade=_id("c"), ids=ids,
                                                cause="premise ended").consume())
    return {"collect": collect, "flag": time.perf_counter() - t0, "dependents": len(ids)}


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) in ms."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))] * 1000


def main(argv: list[str] | None = None) -> int:
    """Print the floor table for YAGO11k on the configured Neo4j (fresh tenants, deleted afterwards)."""
    import credo
    from bench_bitemporal import YAGO, cleanup, load_yago

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--dependents", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds of the full-text comparison")
    parser.add_argument("--vectors", type=int, default=5000, help="rows ingested with (random unit) vectors given")
    args = parser.parse_args(argv)
    rows, _ = load_yago(YAGO, args.limit)
    store = credo.connect(tenant=f"floor_{uuid.uuid4().hex[:8]}", embedder=None)
    db = store._db
    print(f"floor on {db.uri}, {len(rows)} YAGO facts, load average {os.getloadavg()[0]:.2f}")
    rng = random.Random(3)
    try:
        for batch in (1000, 5000):
            tenant = f"floor_{uuid.uuid4().hex[:8]}"
            seconds = ingest(db, tenant, rows, batch)
            print(f"ingest batch {batch:>5}, no embeddings : {len(rows) / seconds:8,.0f} facts/s")
            if batch == 1000:
                timings = reads(db, tenant, rows, args.samples, rng)
                for name, samples in timings.items():
                    print(f"{name:<8} p50 {percentile(samples, 50):5.2f} ms  p95 {percentile(samples, 95):5.2f} ms")
            drop(db, tenant)
        pairs = fulltext_share(db, rows, 1000, args.rounds)
        shares = sorted(1 - w / wo for w, wo in pairs)
        print(f"full-text index share of ingest (batch 1000, {args.rounds} alternated rounds, with / without "
              f"facts/s {', '.join(f'{w:,.0f}/{wo:,.0f}' for w, wo in pairs)}): median {shares[len(shares) // 2]:.0%}")
        some = rows[:args.vectors]
        vectors = [[x / 384 ** 0.5 for x in (rng.choice((-1.0, 1.0)) for _ in range(384))] for _ in some]
        for batch in (1000, 5000):
            tenant = f"floor_{uuid.uuid4().hex[:8]}"
            seconds = ingest(db, tenant, some, batch, vectors)
            print(f"ingest batch {batch:>5}, vectors given : {len(some) / seconds:8,.0f} facts/s ({len(some)} facts)")
            drop(db, tenant)
        tenant = f"floor_{uuid.uuid4().hex[:8]}"
        result = cascade(db, tenant, args.dependents)
        print(f"cascade, {result['dependents']:,} dependents: collect ids {result['collect']:.3f} s, one flag edge "
              f"each {result['flag']:.3f} s")
        drop(db, tenant)
    finally:
        cleanup(store)
        store.close()
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


def drop(db, tenant: str) -> None:
    """Delete a tenant's nodes (and the :Cascade nodes a floor tenant made) in batches; a floor tenant's own vector
    index (`own_index`) is dropped. No DDL runs for an index that is not there: any index statement empties Neo4j's
    plan cache."""
    while db._driver.execute_query("MATCH (n {tenant: $tenant}) WITH n LIMIT 5000 DETACH DELETE n "
                                   "RETURN count(*) AS n", tenant=tenant, database_=db.database).records[0]["n"]:
        pass
    own = {_vector_names(tenant)[1]}
    there = db._driver.execute_query("SHOW INDEXES YIELD name WHERE name IN $own RETURN name", own=sorted(own),
                                     database_=db.database).records
    for record in there:
        db.run_schema(f"DROP INDEX {record['name']} IF EXISTS")


if __name__ == "__main__":
    sys.exit(main())
