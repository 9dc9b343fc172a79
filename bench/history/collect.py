"""The state after a history run (every process up again, the clients stopped), as a `Final`.

- every stored version of each tenant, read raw with the driver from the `Fact` nodes (fact_id, version_id, the
  literal `object_value`, the valid interval, known_from / known_to, `state`, and `forgotten_at` as the forgotten
  mark: a forgotten version's object is None);
- the ledger through `GET /v1/audit` (paged with `after`) and whether `GET /v1/audit/verify` says it is intact;
- every acknowledged read that named its known time, issued again at its (subject, valid_at, known_at) point.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from neo4j import GraphDatabase

from bench.history.clients import parse_time, read_pages, row_of
from bench.history.records import Final, LedgerEvent, Op, Reread, Version

_VERSIONS = """
MATCH (f:Fact {tenant: $tenant})
RETURN f.fact_id AS fact_id, f.version_id AS version_id, f.object_value AS object,
       toString(f.valid_from) AS valid_from, toString(f.valid_to) AS valid_to,
       toString(f.known_from) AS known_from, toString(f.known_to) AS known_to,
       f.state AS state, f.forgotten_at IS NOT NULL AS forgotten
ORDER BY f.known_from, f.version_id
"""


def _instant(text: str | None):
    from credo.graph.core.records import instant

    return None if text is None else instant(text)


def stored_versions(uri: str, user: str, password: str, database: str, tenant: str) -> list[Version]:
    """Every `Fact` version of the tenant as stored."""
    with GraphDatabase.driver(uri, auth=(user, password)) as driver:
        records, _, _ = driver.execute_query(_VERSIONS, tenant=tenant, database_=database)
    return [Version(fact_id=r["fact_id"], version_id=r["version_id"],
                    object=None if r["forgotten"] else r["object"],
                    valid_from=_instant(r["valid_from"]), valid_to=_instant(r["valid_to"]),
                    known_from=_instant(r["known_from"]), known_to=_instant(r["known_to"]),  # type: ignore[arg-type]
                    state=r["state"], forgotten=bool(r["forgotten"])) for r in records]


def ledger(http: httpx.Client, admin_key: str) -> tuple[list[LedgerEvent], bool]:
    """The tenant's whole ledger, in chain order, and whether it verifies."""
    headers, events, after = {"X-API-Key": admin_key}, [], None
    while True:
        params: dict[str, Any] = {"limit": 1000, **({"after": after} if after is not None else {})}
        answer = http.get("/v1/audit", params=params, headers=headers)
        answer.raise_for_status()
        page = answer.json()
        events += [LedgerEvent(seq=e.get("seq"), at=parse_time(e["at"]), operation=e["operation"],  # type: ignore[arg-type]
                               subject_id=e.get("subject_id"), ids=list(e.get("ids") or []), reason=e.get("reason"))
                   for e in page["items"]]
        after = page.get("next_after")
        if after is None:
            break
    verify = http.get("/v1/audit/verify", headers=headers)
    verify.raise_for_status()
    return events, bool(verify.json().get("ok"))


def reread(http: httpx.Client, key: str, op: Op) -> Reread:
    """An acknowledged read issued again at its point (every page)."""
    params = {k: op.args[k] for k in ("subject", "predicate", "valid_at", "known_at")}  # the text first sent
    items, answer = read_pages(http, "/v1/facts", params, {"X-API-Key": key})
    answer.raise_for_status()
    return Reread(op_id=op.id, rows=[row_of(i) for i in items],
                  tombstones=[i["fact_id"] for i in items if i.get("tombstone") is not None])


def collect(ops: list[Op], *, base_url: str, neo4j: tuple[str, str, str, str], keys: dict[str, str],
            admin_keys: dict[str, str], workers: int = 4) -> Final:
    """The Final of a run: `keys` / `admin_keys` map each tenant to its clients' key and its admin key."""
    uri, user, password, database = neo4j
    versions = {t: stored_versions(uri, user, password, database, t) for t in keys}
    with httpx.Client(base_url=base_url, timeout=60) as http:
        ledgers = {t: ledger(http, admin_keys[t]) for t in keys}
        reads = [op for op in ops if op.kind == "read" and op.outcome == "ok" and op.args.get("known_at") is not None]
        with ThreadPoolExecutor(workers) as pool:
            rereads = list(pool.map(lambda op: reread(http, keys[op.tenant], op), reads))
    return Final(versions=versions, ledger={t: ev for t, (ev, _) in ledgers.items()},
                 ledger_ok={t: ok for t, (_, ok) in ledgers.items()}, rereads=rereads)
