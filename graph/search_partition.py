"""Per-tenant vector partitions: a large tenant's fact versions get a label and a vector index of their own.

Neo4j 5.26's vector index is global and can only be filtered after its top-k, so a small tenant searching a
shared index would get emptier (its hits pushed out by others') or slower (a wider k) as others grow. Instead:
a tenant below THRESHOLD versions is scanned exactly (tenant-and-state index seek + cosine over its own
vectors: leak-free, exact, a few ms at that size), and `partition()` — a tenant migration — gives the tenant's
versions a label with a vector index and a full-text index (statement, quote) of its own, so its queries never read
another tenant's vectors or postings (the global `fact_text` index serves small tenants, with a required tenant
clause: it covers the versions labelled `:FactText`, which a tenant's versions lose once its own full-text index is
ready, so no version enters two full-text indexes).

The label and its two indexes are a *slot*, made ahead of need (`make_slots`, SLOT_BATCH at a time: by migration 0013,
then in the background whenever fewer than SLOT_LOW are free); a growing tenant claims a free one. Creating an index
empties Neo4j's whole plan cache — every query of every tenant is planned again, 130-450 ms for a search and ≈ 0.5 s
for a bulk write's statements — so a tenant's growth runs no DDL (`bench/RESULTS.md`, issue 9). Slot labels and
index names come from the slot's number, never from input text; they are the one DDL Credo builds at run time.
Partitions opened before slots keep the label and indexes their node names.

The partition is built off the write path: a write that takes a tenant past THRESHOLD hands the build (claim, label
the existing versions, mark ready) to a background thread (`grown` → `build_later`; search scans exactly until the
partition is marked ready), a bulk write that will cross it opens the partition before its first write (`ahead`:
each version is labelled and indexed as it is written), and `maintain()` builds any that are missing. Indexes are
taken only by tenants that grow (the test suite's thousands of tiny tenants never take one).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from credo.cypher import load
from credo.graph.db import Database, Tx
from credo.schema.errors import RaceLost

READ_SEARCH_PARTITION = load("read_search_partition")
CLAIM_SEARCH_SLOT = load("claim_search_slot")
CREATE_SEARCH_SLOTS = load("create_search_slots")
READ_SEARCH_SLOTS = load("read_search_slots")
RELEASE_SEARCH_SLOT = load("release_search_slot")
UNLABEL_SEARCH_PARTITION = load("unlabel_search_partition")
FREE_SEARCH_SLOT = load("free_search_slot")
LABEL_SEARCH_PARTITION = load("label_search_partition")
READY_SEARCH_PARTITION = load("ready_search_partition")
READ_PARTITION_MEMBERS = load("read_partition_members")
UNLABEL_GLOBAL_TEXT = load("unlabel_global_text")
log = logging.getLogger("credo")

SLOT_BATCH = 8  # slots made at a time (each an empty vector index and full-text index): one plan-cache flush per 8
SLOT_LOW = 2  # fewer free slots than this after a claim: SLOT_BATCH more are made in the background
THRESHOLD = 500  # fact versions: an exact scan reads every vector (≈ 0.07 ms each under load; bench/RESULTS.md)
_ready: dict[tuple[str, str, str], str] = {}  # (uri, database, tenant) -> its ready index (gone only by `release`)
_text_ready: dict[tuple[str, str, str], str] = {}  # (uri, database, tenant) -> its ready full-text index
_sizes: dict[tuple[str, str, str], int] = {}  # (uri, database, tenant) -> versions counted or written since (lower bound)
_builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="credo-partition")  # builds run one at a time
_building: dict[tuple[str, str, str], Future] = {}  # (uri, database, tenant) -> its build, running or queued
_building_lock = threading.Lock()
_refill: dict[tuple[str, str], Future] = {}  # (uri, database) -> its slot refill, running or queued


def names(tenant: str) -> tuple[str, str]:
    """(label, vector index name) from the digest of a tenant id: how partitions were named before slots."""
    digest = hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:20]
    return f"SearchT_{digest}", f"fact_embedding_t_{digest}"


def text_index(tenant: str) -> str:
    """The full-text index name from the digest of a tenant id (partitions opened before slots)."""
    return _text_index_of(names(tenant)[0])


def _text_index_of(label: str) -> str:
    """The full-text index of a partition opened before slots, from its label (`names`)."""
    return "fact_text_t_" + label.removeprefix("SearchT_")


def slot_names(n: int) -> tuple[str, str, str]:
    """(label, vector index, full-text index) of partition slot n."""
    return f"SearchS_{n}", f"fact_embedding_s_{n}", f"fact_text_s_{n}"


def _key(db: Database, tenant: str) -> tuple[str, str, str]:
    return db.uri, db.database, tenant


def names_of(db: Database, tenant: str) -> tuple[str, str, str | None] | None:
    """(label, vector index, full-text index) the tenant's partition names (the full-text one once ready), or None
    when the tenant has no partition."""
    row = db.read(lambda tx: tx.one(READ_SEARCH_PARTITION, tenant=tenant, kind="index"))
    return (row["label"], row["index"], row["text_index"]) if row and row["label"] is not None else None


def index_for(tx: Tx, tenant: str) -> str | None:
    """The name of the tenant's own ready vector index, or None (search scans the tenant's versions exactly)."""
    row = tx.one(READ_SEARCH_PARTITION, tenant=tenant, kind="index")
    return row["index"] if row and row["ready"] else None


def indexes_for(tx: Tx, tenant: str) -> tuple[str | None, str | None]:
    """(vector, full-text) names of the tenant's own ready indexes; None for either it has not (search then scans
    the tenant's versions exactly, or reads the global `fact_text` with a tenant clause)."""
    row = tx.one(READ_SEARCH_PARTITION, tenant=tenant, kind="index")
    return (row["index"], row["text_index"]) if row and row["ready"] else (None, None)


def cached_index(db: Database, tenant: str) -> str | None:
    """The tenant's ready index as this process last saw it (no query), or None when not seen ready yet."""
    return _ready.get(_key(db, tenant))


def cached_text_index(db: Database, tenant: str) -> str | None:
    """The tenant's ready full-text index as this process last saw it (no query), or None."""
    return _text_ready.get(_key(db, tenant))


def remember_index(db: Database, tenant: str, index: str | None, text: str | None = None) -> None:
    """Cache ready index names (a None is not cached: the partition may become ready later)."""
    if index is not None:
        _ready[_key(db, tenant)] = index
    if text is not None:
        _text_ready[_key(db, tenant)] = text


def count_new(tx: Tx, versions: int) -> None:
    """Count new versions on the transaction (`created`), so the write's end can see whether the tenant crossed
    THRESHOLD (create_fact_versions.cypher gives them the partition label as it makes them)."""
    setattr(tx, "credo_new_versions", created(tx) + versions)


def created(tx: Tx) -> int:
    """How many fact versions this transaction created."""
    return getattr(tx, "credo_new_versions", 0)


def grown(db: Database, tenant: str, added: int) -> None:
    """After a committed write that created `added` versions: once the tenant has THRESHOLD versions, hand its
    partition build to the background (the write is answered now; search scans exactly until the build is ready).

    The tenant's size is counted once per process (then kept as a lower bound by adding what this process wrote)
    and counted again only when the bound reaches THRESHOLD, so a write pays no extra query in between; a tenant
    grown by other processes is still caught by `maintain()`."""
    key = _key(db, tenant)
    if added <= 0 or key in _ready or _pending(key):
        return
    known = _sizes.get(key)
    if known is None or known + added >= THRESHOLD:
        row = db.read(lambda tx: tx.one(READ_SEARCH_PARTITION, tenant=tenant, kind="size"))
        if row and row["ready"] and row["text_index"]:
            remember_index(db, tenant, row["index"], row["text_index"])
            return
        known = (row or {}).get("versions") or 0
    else:
        known += added
    _sizes[key] = known
    if known >= THRESHOLD:
        build_later(db, tenant)


def ahead(db: Database, tenant: str, expected: int) -> bool:
    """Before writing `expected` new versions (a bulk import): open the tenant's partition now if they take it past
    THRESHOLD, so each version is labelled and enters the partition's indexes as it is written (no labelling pass
    and no index population after the fact). Returns whether the tenant's partition is ready; a failure is logged
    and left to `grown` / `maintain()`."""
    key = _key(db, tenant)
    if key in _ready:
        return True
    row = db.read(lambda tx: tx.one(READ_SEARCH_PARTITION, tenant=tenant, kind="size"))
    if row and row["ready"] and row["text_index"]:
        remember_index(db, tenant, row["index"], row["text_index"])
        return True
    versions = (row or {}).get("versions") or 0
    _sizes[key] = versions
    if versions + expected < THRESHOLD:
        return False
    settle(db, tenant)  # a build of this tenant already under way finishes first (partition is idempotent)
    return _build(db, tenant) is not None


def build_later(db: Database, tenant: str) -> Future:
    """Queue the tenant's partition build on the background builder (one build per tenant at a time)."""
    key = _key(db, tenant)
    with _building_lock:
        pending = _building.get(key)
        if pending is None or pending.done():
            pending = _builder.submit(_build, db, tenant)
            _building[key] = pending
    db.track(pending)
    return pending


def settle(db: Database, tenant: str | None = None, timeout_s: float | None = None) -> None:
    """Wait for the background partition builds of `db` (of one tenant, if given; else its slot refill too) to
    finish."""
    with _building_lock:
        jobs = [f for (uri, database, t), f in _building.items()
                if (uri, database) == (db.uri, db.database) and tenant in (None, t)]
        if tenant is None and (db.uri, db.database) in _refill:
            jobs.append(_refill[(db.uri, db.database)])
    for job in jobs:
        try:
            job.result(timeout=timeout_s)
        except Exception:  # noqa: BLE001 - a build that failed or timed out was logged; maintain() builds it later
            pass


def _pending(key: tuple[str, str, str]) -> bool:
    with _building_lock:
        job = _building.get(key)
        return job is not None and not job.done()


def _build(db: Database, tenant: str) -> str | None:
    """Build the tenant's partition (`partition` caches its ready indexes); a failure is logged, not raised (the
    write that asked for it is committed)."""
    try:
        index = partition(db, tenant)
    except Exception as exc:  # noqa: BLE001 - maintain() (or the next write past the threshold) builds it later
        log.warning("search partition of a tenant past %d versions not built now (%s); maintain() will", THRESHOLD, exc)
        return None
    return index


def needs_partition(db: Database, tenant: str, threshold: int | None = None) -> bool:
    """Whether the tenant has grown past `threshold` (default THRESHOLD) versions without a ready partition (or
    with one made before partitions had their own full-text index)."""
    row = db.read(lambda tx: tx.one(READ_SEARCH_PARTITION, tenant=tenant, kind="size"))
    limit = THRESHOLD if threshold is None else threshold
    return bool(row) and not (row["ready"] and row["text_index"]) and (row["versions"] or 0) >= limit


def partition(db: Database, tenant: str, *, timeout_s: int = 600) -> str:
    """Give the tenant its own label, vector index and full-text index (idempotent): a free slot's, made first when
    none is free; returns the vector index name once both are online.

    Order matters: the partition node exists (so every new version gets the label) before existing versions are
    labelled, search uses the indexes only once they are online and marked ready, and only then do the tenant's
    versions leave the global `fact_text` index."""
    claim = db.write(lambda tx: tx.one(CLAIM_SEARCH_SLOT, tenant=tenant))
    if claim is None:  # every slot is taken: make some now (the background refill did not keep up)
        make_slots(db, SLOT_BATCH, timeout_s=timeout_s)
        claim = db.write(lambda tx: tx.one(CLAIM_SEARCH_SLOT, tenant=tenant))
    if claim is None:
        raise RaceLost("search partition", "other tenants took every slot made meanwhile; try again")
    label, index, text = claim["label"], claim["index"], claim["text_index"]
    db.run_schema_query(LABEL_SEARCH_PARTITION, tenant=tenant, label=label)
    if text is None:  # a partition opened before slots and before own full-text indexes: its digest names it
        text = _text_index_of(label)
        db.run_schema(f"CREATE FULLTEXT INDEX {text} IF NOT EXISTS FOR (n:{label}) ON EACH [n.statement, n.quote]")
    db.run_schema(f"CALL db.awaitIndex('{index}', {int(timeout_s)})")
    db.run_schema(f"CALL db.awaitIndex('{text}', {int(timeout_s)})")
    if db.write(lambda tx: tx.one(READY_SEARCH_PARTITION, tenant=tenant, text_index=text)) is None:
        # released while it was built: its versions stay in the global full-text index, nothing is remembered
        raise RaceLost("search partition", "the partition was released while it was built")
    # from now on its new versions enter its own full-text index only; the existing ones leave the global one
    db.run_schema_query(UNLABEL_GLOBAL_TEXT, tenant=tenant)
    remember_index(db, tenant, index, text)
    if claim["free"] < SLOT_LOW:
        slots_later(db)
    return index


def make_slots(db: Database, count: int, *, timeout_s: int = 600) -> list[int]:
    """Make `count` more partition slots, each a label with an empty vector index and an empty full-text index of its
    own (DDL, outside any write; idempotent under a race, as every statement is IF NOT EXISTS / MERGE); their
    numbers."""
    top = db.query(READ_SEARCH_SLOTS)[0]["top"]
    made = list(range(top + 1, top + 1 + count))
    for n in made:  # DDL takes no parameters: the names come from the slot's number (see the module docstring)
        label, index, text = slot_names(n)
        db.run_schema(f"CREATE VECTOR INDEX {index} IF NOT EXISTS FOR (n:{label}) ON n.embedding "
                      "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}")
        db.run_schema(f"CREATE FULLTEXT INDEX {text} IF NOT EXISTS FOR (n:{label}) ON EACH [n.statement, n.quote]")
    for n in made:
        for name in slot_names(n)[1:]:
            db.run_schema(f"CALL db.awaitIndex('{name}', {int(timeout_s)})")
    db.query(CREATE_SEARCH_SLOTS, write=True, slots=[dict(zip(("label", "index", "text_index"), slot_names(n)), n=n)
                                                     for n in made])
    return made


def first_slots(db: Database) -> None:
    """Migration 0013's data step: the pool node and SLOT_BATCH free slots (none made again if they are there)."""
    free = db.query(READ_SEARCH_SLOTS)[0]["free"]
    make_slots(db, max(SLOT_BATCH - free, 0))


def slots_later(db: Database) -> Future:
    """Queue SLOT_BATCH more slots on the background builder (one refill per database at a time)."""
    key = (db.uri, db.database)
    with _building_lock:
        pending = _refill.get(key)
        if pending is None or pending.done():
            pending = _builder.submit(_make_logged, db)
            _refill[key] = pending
    db.track(pending)
    return pending


def _make_logged(db: Database) -> list[int]:
    try:
        return make_slots(db, SLOT_BATCH)
    except Exception as exc:  # noqa: BLE001 - a claim that finds no free slot makes its own
        log.warning("search partition slots not made now (%s); the next partition makes its own", exc)
        return []


def release(db: Database, tenant: str) -> None:
    """Close the tenant's partition: its versions go back to the global full-text index and its slot is free for
    another tenant (a partition opened before slots has its two indexes dropped instead).

    For a tenant whose data is being deleted, or that no other process is serving: another process keeps the
    partition's index names cached (a ready partition is not looked up again) and would search the slot the next
    tenant takes. In this process the caches are cleared. Order: the partition node goes first (a write in flight
    waits for it, a later one joins the global index), the slot drains while its label comes off the tenant's
    versions, and is freed last, so no other tenant ever shares its indexes with this one's versions."""
    settle(db, tenant)
    row = db.write(lambda tx: tx.one(RELEASE_SEARCH_SLOT, tenant=tenant))
    if row is None:
        return
    db.run_schema_query(UNLABEL_SEARCH_PARTITION, tenant=tenant, label=row["label"])
    key = _key(db, tenant)
    for cache in (_ready, _text_ready, _sizes):
        cache.pop(key, None)
    if row["slot"] is not None:
        db.write(lambda tx: tx.one(FREE_SEARCH_SLOT, n=row["slot"]))
        return
    db.run_schema(f"DROP INDEX {row['index']} IF EXISTS")
    db.run_schema(f"DROP INDEX {_text_index_of(row['label'])} IF EXISTS")


def abandon(db: Database, tenant: str) -> None:
    """Release the partition a bulk write opened ahead if that write was refused and the tenant has no version (so
    a refused first batch does not keep a slot)."""
    row = db.read(lambda tx: tx.one(READ_SEARCH_PARTITION, tenant=tenant, kind="size"))
    if row and row["label"] is not None and not row["versions"]:
        release(db, tenant)
