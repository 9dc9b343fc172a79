"""Fact versions in the graph: create, close, link, and read them as of a (valid, known) point."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from credo.cypher import Query, load
from credo.graph.truth import dependencies
from credo.graph.core.db import Tx, cipher_of
from credo.graph.core.records import FAR_FUTURE, fact_from_row, fact_props, instant, readable
from credo.schema.errors import ConflictError
from credo.schema.search import search_keys
from credo.schema.facts import Fact, Listing

CREATE_FACT_VERSIONS = load("create_fact_versions")
CLOSE_CURRENT_VERSIONS = load("close_current_versions")
CLOSE_FACT_VERSIONS = load("close_fact_versions")
LINK_SUPERSEDES = load("link_supersedes")
READ_VERSION = load("read_version")
READ_FACT_VERSIONS = load("read_fact_versions")
READ_CURRENT_BY_SUBJECTS = load("read_current_by_subjects")
READ_NAMES_AND_HELD = load("read_names_and_held")
READ_VERSIONS_BY_IDS = load("read_versions_by_ids")
READ_FACTS_BY_SUBJECT = load("read_facts_by_subject")
READ_FACTS_BY_OBJECT = load("read_facts_by_object")
READ_FACTS_BY_PREDICATE = load("read_facts_by_predicate")
READ_FACTS_ALL = load("read_facts_all")
READ_FACTS_BY_SUBJECT_NAME = load("read_facts_by_subject_name")
READ_FACTS_BY_OBJECT_NAME = load("read_facts_by_object_name")
READ_NEIGHBOURS = load("read_neighbours")
READ_RELATIONS = load("read_relations")
READ_ENTITY_VERSIONS = load("read_entity_versions")
CARRY_VERSION_EDGES = load("carry_version_edges")


def create_versions(tx: Tx, facts: list[Fact], embeddings: dict[str, list[float]] | None = None,
                    entities: list[dict[str, Any]] | None = None) -> None:
    """Write new versions (of one tenant) with their ABOUT edges and their search keys, in one statement;
    `entities` ({norm, name, entity_id, kind, created_at}) are the new entities they name, created first."""
    if not facts:
        return
    tenants = {f.tenant for f in facts}
    if len(tenants) != 1:
        raise ValueError(f"create_versions writes one tenant's versions at a time, not {sorted(tenants)}")
    tx.one(CREATE_FACT_VERSIONS, tenant=facts[0].tenant, entities=entities or [],
           rows=create_rows(facts, embeddings, cipher_of(tx)))


def create_rows(facts: list[Fact], embeddings: dict[str, list[float]] | None, cipher: Any = None) -> list[dict[str, Any]]:
    """The `$rows` of create_fact_versions.cypher for new versions (sealed when a cipher is given)."""
    embeddings = embeddings or {}
    rows = []
    texts: dict[datetime, str] = {}  # a batch's instants repeat (its known time on every row, shared dates)
    for f in facts:
        props = fact_props(f, embedding=embeddings.get(f.version_id))
        if cipher is not None:  # the one encrypt step of a fact version (crypto-erasure mode)
            props = cipher.seal_fact(f.tenant, props)
        # instants travel as ISO text and become datetimes in Cypher: the driver's pure-Python datetime
        # packing was the largest client cost of a bulk write (same stored value, fixed UTC offset)
        instants = {}
        for k in _INSTANTS:
            if k in props:
                point = props.pop(k)
                text = texts.get(point)
                instants[k] = text if text is not None else texts.setdefault(point, point.isoformat())
        props.update(search_keys(f.known_from, f.known_to, f.valid_from, f.valid_to, f.sensitivity))
        rows.append({"props": props, "instants": instants, "subject_id": f.subject_id, "object_id": f.object.entity_id})
    return rows


_INSTANTS = ("valid_from", "valid_to", "known_from", "known_to", "verified_at")


def close_checked(tx: Tx, query: Query, known: datetime, closing: list[tuple[str, str, str | None]], noun: str) -> None:
    """Run a close query over (version_id, ended_by, reason) rows; refuse if any was closed meanwhile."""
    if not closing:
        return
    rows = [{"version_id": v, "ended_by": how, "reason": why} for v, how, why in closing]
    row = tx.one(query, known=known, rows=rows)
    closed = set(row["closed"]) if row else set()
    missing = [v for v, _, _ in closing if v not in closed]
    if missing:
        raise ConflictError(missing[0], f"this {noun} is no longer current (another write changed it first)")


def close_current(tx: Tx, tenant: str, known: datetime, fact_id: str, ended_by: str, reason: str | None) -> list[Fact]:
    """Close every current version of a fact in one statement; each as it was believed before ([] when none was).
    The same statement takes the cascade's first walk step from the fact (kept for the walk while nothing else runs)."""
    row = tx.one(CLOSE_CURRENT_VERSIONS, tenant=tenant, fact_id=fact_id, known=known, ended_by=ended_by,
                 reason=reason, known_at=FAR_FUTURE)
    dependencies.prefetch(tx, [fact_id], row)
    return [fact_from_row(fact) for fact in row["facts"]] if row else []


def close_versions(tx: Tx, known: datetime, closing: list[tuple[str, str, str | None]]) -> None:
    """Close (version_id, ended_by, reason) fact versions; refuse if any was closed meanwhile."""
    close_checked(tx, CLOSE_FACT_VERSIONS, known, closing, "version")


def carry_edges(tx: Tx, known: datetime, pairs: list[tuple[str, str]], same_statement: set[str] = frozenset()) -> None:
    """Copy the believed SOURCED_FROM / ACCEPTED_IN / DEPENDS_ON edges of old versions to their new versions (and the
    embedding when the statement is unchanged; `same_statement` names new version ids known to keep it)."""
    if pairs:
        tx.one(CARRY_VERSION_EDGES, known=known,
               rows=[{"old_id": o, "new_id": n, "same_statement": n in same_statement} for o, n in pairs])


def link_supersedes(tx: Tx, known: datetime, links: list[tuple[str, str, str, datetime | None]]) -> None:
    """Create (new_id)-[:SUPERSEDES {kind, at}]->(old_id) edges."""
    if links:
        rows = [{"new_id": n, "old_id": o, "kind": k, "at": at} for n, o, k, at in links]
        tx.one(LINK_SUPERSEDES, known=known, rows=rows)


def version(tx: Tx, tenant: str, version_id: str, known_at: datetime | None = None) -> Fact | None:
    """One version by id (disputed as believed at known_at, default now), or None."""
    row = tx.one(READ_VERSION, tenant=tenant, version_id=version_id, known_at=known_at or FAR_FUTURE)
    return fact_from_row(row["fact"]) if row else None


def versions_of(tx: Tx, tenant: str, fact_id: str, known_at: datetime | None = None) -> list[Fact]:
    """Every version of a fact, oldest belief first (disputed as believed at known_at, default now)."""
    rows = tx.rows(READ_FACT_VERSIONS, tenant=tenant, fact_id=fact_id, known_at=known_at or FAR_FUTURE)
    return [fact_from_row(r["fact"]) for r in rows]


def entity_versions(tx: Tx, tenant: str, entity_ids: list[str]) -> list[Fact]:
    """Every version (any state, any known time) of every fact about the entity's ids as subject, unsorted."""
    return [fact_from_row(r["fact"]) for r in tx.rows(READ_ENTITY_VERSIONS, tenant=tenant, entity_ids=entity_ids)]


def current_for(tx: Tx, tenant: str, keys: list[tuple[list[str], str]], *,
                episodic: bool = False) -> list[list[Fact]]:
    """Versions believed now for each (subject ids, predicate), in input order: the episodes for an `episodic`
    write, every other kind otherwise (DESIGN §9: they never meet)."""
    if not keys:
        return []
    rows = [{"subject_ids": ids, "predicate": p, "episodic": episodic} for ids, p in keys]
    found = {
        # an unreadable version is not served, so it does not hold the slot either (it is named in the log)
        (r["predicate"], tuple(r["subject_ids"])): readable([fact_from_row(f) for f in r["facts"]], "conflict rule")
        for r in tx.rows(READ_CURRENT_BY_SUBJECTS, tenant=tenant, rows=rows)
    }
    return [found.get((p, tuple(ids)), []) for ids, p in keys]


HeldRow = tuple[str, str, tuple[str, str], dict[str, str], str, "datetime | None", "str | None", "datetime | None",
                "str | None"]


Ask = tuple[int, str, tuple[str, str, int | None] | None]  # (subject position, predicate, object or None)


def names_and_held(
    tx: Tx, tenant: str, norms: list[str], asks: list[Ask], states: list[str],
) -> tuple[list[dict[str, Any]], list[list[HeldRow]]]:
    """One lock-free read for a bulk write under its tenant's clock: each normalised name's entity
    ({entity_id, name, ids}; entity_id None when no entity has it) and, per ask, the conflict rule's input: served
    versions believed now as (fact_id, version_id, object key, scope, state, valid_from, valid_from_precision,
    valid_to, sensitivity) tuples. An ask names its subject by position in `norms`, and its object, to narrow the read to
    versions of that object (a multi-valued predicate), as (object_type, object_value, position of an entity
    object's name or None)."""
    # sealed literal values differ byte for byte: ask for every object and compare the opened values here
    opened = cipher_of(tx) is not None
    rows = [{"subject_at": s, "predicate": p, "object_at": o[2] if o else None,
             "object_type": o[0] if o and not (opened and o[2] is None) else None,
             "object_value": o[1] if o else None} for s, p, o in asks]
    row = tx.one(READ_NAMES_AND_HELD, tenant=tenant, names=norms, asks=rows, states=states)
    found = row["found"] if row else []
    if [f["at"] for f in found] != list(range(len(norms))):
        raise ValueError("read_names_and_held answered the names out of order")
    held: list[list[HeldRow]] = [[] for _ in asks]
    for h in row["held"] if row else []:
        if (one := _held(h[1:])) is not None:
            held[h[0]].append(one)
    if opened:
        for at, (_s, _p, o) in enumerate(asks):
            if o is not None and o[2] is None:
                held[at] = [h for h in held[at] if h[2] == (o[0], o[1])]
    return found, held


def _held(h: list[Any]) -> HeldRow | None:
    fact_id, version_id, otype, ovalue, oid, scope_key, state, vf, vfp, vt, sensitivity = h
    try:
        # an unreadable version is not served, so it does not hold the slot either (it is named in the log)
        return (fact_id, version_id, ("entity", oid or "") if otype == "entity" else (otype, ovalue),
                json.loads(scope_key or "{}"), state, None if vf is None else instant(vf), vfp,
                None if vt is None else instant(vt), sensitivity)
    except (TypeError, ValueError) as exc:
        logging.getLogger("credo").warning("conflict rule skipped unreadable fact version %s: %s", version_id, exc)
        return None


def versions_by_ids(tx: Tx, tenant: str, version_ids: list[str]) -> dict[str, Fact]:
    """Versions by id (those found), disputed as believed now."""
    if not version_ids:
        return {}
    found = readable([fact_from_row(r["fact"]) for r in tx.rows(READ_VERSIONS_BY_IDS, tenant=tenant,
                                                                version_ids=version_ids)], "reinforcement")
    return {f.version_id: f for f in found}


ALL = 2**62  # `$limit` of an unwindowed read: every version (one parameter type whatever the read)


def as_of(
    tx: Tx,
    tenant: str,
    *,
    subject_ids: list[str] | None = None,
    object_ids: list[str] | None = None,
    predicate: str | None = None,
    object_value: str | None = None,
    scope_key: str | None = None,
    valid_at: datetime,
    known_at: datetime | None,
    states: list[str],
    include_undated: bool = False,
    any_valid: bool = False,
) -> Listing:
    """Versions whose valid and known intervals contain the point, picking the query an index serves (a
    Listing: unreadable stored versions are skipped and named in `.unreadable`)."""
    params = _point_params(tenant, predicate=predicate, scope_key=scope_key, valid_at=valid_at, known_at=known_at,
                           states=states, include_undated=include_undated, any_valid=any_valid)
    value, sealed = _value_filter(tx, object_value)
    params.update(object_id=None, object_value=value)

    def seen(found: list[Fact]) -> Listing:
        return _believed_listing(_same_value(found, sealed), known_at)

    if subject_ids is not None:
        if object_ids is not None:
            params["object_id"] = object_ids[0] if len(object_ids) == 1 else None
        rows = tx.rows(READ_FACTS_BY_SUBJECT, entity_ids=subject_ids, **params)
        found = [fact_from_row(r["fact"]) for r in rows]
        if object_ids is not None:
            found = [f for f in found if f.object.entity_id in object_ids]
        return seen(found)
    if object_ids is not None:
        return seen([fact_from_row(r["fact"]) for r in tx.rows(READ_FACTS_BY_OBJECT, entity_ids=object_ids, **params)])
    return seen([fact_from_row(r["fact"]) for r in _listing_rows(tx, params, skip=0, limit=ALL)])


def as_of_window(
    tx: Tx, tenant: str, *, skip: int, limit: int, predicate: str | None = None, object_value: str | None = None,
    scope_key: str | None = None, valid_at: datetime, known_at: datetime | None, states: list[str],
    include_undated: bool = False,
) -> tuple[list[Fact | None], set[str]]:
    """One window of the tenant's as-of listing (by predicate, or all), cut in the query: one entry per row the
    query returned, in the listing's order (fewer than `limit`: the listing ends here), each the version as believed
    at known_at (an unreadable one marked, in place) or None where a sealed literal differs from `object_value`; and
    the fact ids whose version rests on premises."""
    params = _point_params(tenant, predicate=predicate, scope_key=scope_key, valid_at=valid_at, known_at=known_at,
                           states=states, include_undated=include_undated, any_valid=False)
    value, sealed = _value_filter(tx, object_value)
    params.update(object_id=None, object_value=value)
    rows = _listing_rows(tx, params, skip=skip, limit=limit)
    found = _as_believed([fact_from_row(r["fact"]) for r in rows], known_at)
    premised = {r["fact"]["fact_id"] for r in rows if r["premised"]}
    # a sealed literal is compared opened (crypto-erasure mode); a row that differs keeps its place as None
    return [f if sealed is None or f.object.value == sealed else None for f in found], premised


def _listing_rows(tx: Tx, params: dict[str, Any], *, skip: int, limit: int) -> list[dict[str, Any]]:
    query = READ_FACTS_ALL if params.get("predicate") is None else READ_FACTS_BY_PREDICATE
    return tx.rows(query, skip=skip, limit=limit, **params)


def as_of_named(
    tx: Tx,
    tenant: str,
    *,
    subject_norm: str | None = None,
    object_norm: str | None = None,
    predicate: str | None = None,
    object_value: str | None = None,
    scope_key: str | None = None,
    valid_at: datetime,
    known_at: datetime | None,
    states: list[str],
    include_undated: bool = False,
    any_valid: bool = False,
) -> tuple[Listing, set[str]]:
    """`as_of` for a normalised subject (or, without one, object) name, resolved under the merges believed at
    known_at inside the same query (one round trip; a name no entity has gives an empty Listing), and the ids of
    the returned facts whose version rests on premises (the others are supported by themselves)."""
    params = _point_params(tenant, predicate=predicate, scope_key=scope_key, valid_at=valid_at, known_at=known_at,
                           states=states, include_undated=include_undated, any_valid=any_valid)
    object_value, sealed = _value_filter(tx, object_value)
    if subject_norm is not None:
        rows = tx.rows(READ_FACTS_BY_SUBJECT_NAME, norm=subject_norm, object_norm=object_norm,
                       object_value=object_value, **params)
    elif object_norm is not None:
        rows = tx.rows(READ_FACTS_BY_OBJECT_NAME, norm=object_norm, **params)
    else:
        raise ValueError("as_of_named needs a subject or an object name")
    premised = {r["fact"]["fact_id"] for r in rows if r["premised"]}
    return _believed_listing(_same_value([fact_from_row(r["fact"]) for r in rows], sealed), known_at), premised


def _value_filter(tx: Tx, object_value: str | None) -> tuple[str | None, str | None]:
    """(the value Cypher filters on, the value Python filters on): in crypto-erasure mode literal values are sealed
    with a random nonce, so the equality is checked on the opened rows instead of in the query."""
    if object_value is None or cipher_of(tx) is None:
        return object_value, None
    return None, object_value


def _same_value(found: list[Fact], value: str | None) -> list[Fact]:
    return found if value is None else [f for f in found if f.object.value == value]


def _point_params(tenant: str, *, predicate: str | None, scope_key: str | None, valid_at: datetime,
                  known_at: datetime | None, states: list[str], include_undated: bool, any_valid: bool) -> dict[str, Any]:
    """The parameters every as-of query shares; the points travel as ISO text (datetime() in Cypher), since the
    driver's datetime packing is pure Python."""
    return {"tenant": tenant, "predicate": predicate, "scope_key": scope_key, "valid_at": valid_at.isoformat(),
            "known_at": (known_at or FAR_FUTURE).isoformat(), "states": states, "include_undated": include_undated,
            "any_valid": any_valid}


def _believed_listing(found: list[Fact], known_at: datetime | None) -> Listing:
    """Readable versions as believed at known_at, the unreadable ones named."""
    good = readable(found, "facts as of a point")
    return Listing(_as_believed(good, known_at), good.unreadable)


def _as_believed(found: list[Fact], known_at: datetime | None) -> list[Fact]:
    """Versions as believed at known_at: a later closing of the version was not known yet."""
    if known_at is None:
        return found
    return [
        f.model_copy(update={"known_to": None, "ended_by": None, "end_reason": None})
        if f.known_to is not None and f.known_to > known_at else f
        for f in found
    ]


as_believed = _as_believed  # for the repositories that read versions page by page (graph/facts/relations.py)


def relations(
    tx: Tx, tenant: str, norm: str, *, valid_at: datetime, known_at: datetime | None, states: list[str]
) -> tuple[list[Fact], list[tuple[Fact, str | None]], set[str], set[str]] | None:
    """(outgoing facts, [(incoming fact, inverse name or None)], ids of the returned facts whose version rests on
    premises, version ids of those with a source linked) of the entity a normalised name resolves to, each list in valid-time order, undated ones (not ended
    by the point) last; None when no entity has this name. One round trip."""
    row = tx.one(
        READ_RELATIONS, tenant=tenant, norm=norm, valid_at=valid_at.isoformat(),
        known_at=(known_at or FAR_FUTURE).isoformat(), states=states,
    )
    if row is None:
        return None
    out = readable([fact_from_row(f) for f in row["outgoing"]], "relations")
    inc = readable([(fact_from_row(r["fact"]), r["inverse"]) for r in row["incoming"]], "relations", lambda i: i[0])
    outgoing = Listing(_as_believed(out, known_at), out.unreadable)
    believed_in = _as_believed([f for f, _inverse in inc], known_at)
    premised = {f["fact_id"] for f in row["outgoing"] if f["premised"]}
    premised |= {r["fact"]["fact_id"] for r in row["incoming"] if r["fact"]["premised"]}
    facts = row["outgoing"] + [r["fact"] for r in row["incoming"]]
    sourced = {f["version_id"] for f in facts if f.get("sourced")}
    return (outgoing, Listing([(f, inverse) for f, (_f, inverse) in zip(believed_in, inc)], inc.unreadable), premised,
            sourced)


def neighbours(
    tx: Tx, tenant: str, ids: list[str], *, valid_at: datetime, known_at: datetime | None, states: list[str],
    include_undated: bool = False,
) -> list[tuple[str, str, str, Fact]]:
    """(from_id, to_id, direction, fact) for every served entity relation touching the frontier (undated ones,
    not ended by the point, only when asked)."""
    rows = tx.rows(
        READ_NEIGHBOURS, tenant=tenant, ids=ids, valid_at=valid_at.isoformat(),
        known_at=(known_at or FAR_FUTURE).isoformat(), states=states, include_undated=include_undated,
    )
    return readable([(r["from_id"], r["to_id"], r["direction"], fact_from_row(r["fact"])) for r in rows], "path",
                    lambda item: item[3])

