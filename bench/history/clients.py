"""The clients of a history run: N threads issuing random operations over HTTP and recording each as an `Op`.

Each client is bound to one of the servers (client i to server i mod 2). After a connection failure it sends its
LATER operations to the other server; it never retries an operation: an operation whose answer was lost is recorded
`unknown` and the client moves on.

**Outcomes** (the rule every record follows):
- a 2xx answer: `ok`;
- a 4xx answer: `refused` with the problem document's `code` (nothing was written: the server refuses before or
  instead of committing);
- a 5xx answer: `refused` only when its code names a refusal made before any write began (`migration_needed`,
  `not_configured`, `provisioning_failed`); any other 5xx (`database_unavailable`, `internal`, ...) is `unknown`:
  the body does not say whether the transaction committed (a connection lost during COMMIT answers 503 too);
- no connection could be made (`httpx.ConnectError`, `httpx.ConnectTimeout`): `refused` with code `connect_failed`
  (no byte of the request left the client);
- a timeout after the request was sent (`timeout_s`, default 10 s) or a connection lost mid-request: `unknown`
  with code `timeout` or `connection_lost`.

**What an acknowledged write records.** `rows`: the versions it returned (`add`, `succeed`, `correct`, `end`,
`resolve`: the one result; `retract`: every version it closed); `known_at`: the write's known time, the largest
`known_from` / `known_to` among the returned versions (each write's own new version, or the close it made, carries
exactly its commit time). A `forget` returns no version: its `rows` are empty and its `known_at` is None (the ledger
event whose reason is the op id carries its time).

**Arguments** are recorded as sent: every time in `args` is the text the request carried (a day such as
`2021-03-04`, or an ISO instant with `Z`), never a datetime; `args["server"]` is the index of the server it went to.

**What a read records.** Every item `GET /v1/facts` served (every page of it) as a `Row`; an item the store showed as
a tombstone (a forgotten fact at a past known time) is a Row whose `object` is None and its fact id is also listed in
`tombstones`.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any

import httpx

from bench.history.records import Op, Row

PREDICATE = "holds"  # defined single-valued at setup: a second value for a subject conflicts
SUBJECTS = tuple(f"s{i}" for i in range(6))
ACTOR = "history"
REFUSED_5XX = frozenset({"migration_needed", "not_configured", "provisioning_failed"})
WEIGHTS = {"add": 30, "succeed": 10, "correct": 8, "end": 8, "retract": 6, "resolve": 6, "forget": 3, "read": 40}
_FIRST_DAY, _DAYS = date(2020, 1, 1), 6 * 365


def utcnow() -> datetime:
    """The client's wall clock, UTC."""
    return datetime.now(timezone.utc)


def iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def parse_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text.replace("Z", "+00:00"))


def random_day(rng: random.Random, spread: int = 0) -> str:
    """A day (ISO date) of 2020-2025, or `spread` days either side of that range."""
    return (_FIRST_DAY + timedelta(days=rng.randint(-spread, _DAYS + spread))).isoformat()


@dataclass
class Tenant:
    """One tenant of the run and the key its clients use (scopes read, curate, forget)."""

    name: str
    key: str


@dataclass
class Registry:
    """What was acknowledged in one tenant, shared by its clients: targets for writes, known times for reads."""

    facts: dict[str, str] = field(default_factory=dict)  # fact id -> subject
    known_times: list[datetime] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, op: Op) -> None:
        with self.lock:
            if op.known_at is not None:
                self.known_times.append(op.known_at)
            if op.kind in ("add", "succeed", "correct"):
                for row in op.rows:
                    self.facts[row.fact_id] = op.args.get("subject") or self.facts.get(row.fact_id, "")

    def fact(self, rng: random.Random) -> str | None:
        with self.lock:
            return rng.choice(list(self.facts)) if self.facts else None

    def known_time(self, rng: random.Random) -> datetime | None:
        with self.lock:
            return rng.choice(self.known_times) if self.known_times else None


class History:
    """The records of a run, appended as each operation completes (the order of the history file)."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self._lock = threading.Lock()

    def add(self, op: Op) -> None:
        with self._lock:
            self.ops.append(op)

    def counts(self) -> dict[str, int]:
        with self._lock:
            ops = list(self.ops)
        out: dict[str, int] = {}
        for op in ops:
            out[op.outcome] = out.get(op.outcome, 0) + 1
        return out


def row_of(item: dict[str, Any]) -> Row:
    """A served or returned version as a Row (the object's text; None for a tombstone)."""
    tomb = item.get("tombstone") is not None
    obj = item.get("object")
    text = obj.get("value") if isinstance(obj, dict) else obj
    return Row(fact_id=item["fact_id"], version_id=item["version_id"], object=None if tomb else text,
               valid_from=parse_time(item.get("valid_from")), valid_to=parse_time(item.get("valid_to")),
               known_from=parse_time(item.get("known_from")), state=item.get("state"))


def write_known_at(items: list[dict[str, Any]], cascade: dict[str, Any] | None) -> datetime | None:
    """The known time of an acknowledged write: the largest known_from / known_to it returned (see module doc)."""
    times = [parse_time(i.get(k)) for i in items for k in ("known_from", "known_to") if i.get(k)]
    if cascade and cascade.get("at"):
        times.append(parse_time(cascade["at"]))
    return max(times) if times else None  # type: ignore[type-var]


class Client:
    """One client thread: random operations on its tenants until `stop` is set."""

    def __init__(self, number: int, servers: list[str], tenants: list[Tenant], registries: dict[str, Registry],
                 history: History, stop: threading.Event, *, seed: int, started: datetime,
                 timeout_s: float = 10.0) -> None:
        self.number, self.servers, self.tenants = number, servers, tenants
        self.registries, self.history, self.stop = registries, history, stop
        self.rng = random.Random(seed * 1_000 + number)
        self.started, self.timeout_s = started, timeout_s
        self.server = number % len(servers)
        self.seq = 0
        self.http = httpx.Client(timeout=timeout_s)

    # -- the loop ----------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            while not self.stop.is_set():
                op = self.step()
                if op is not None and op.outcome != "ok" and op.code in ("connect_failed", "connection_lost",
                                                                          "timeout", "database_unavailable"):
                    self.stop.wait(0.3)  # a server or the database is down: do not spin
        finally:
            self.http.close()

    def step(self) -> Op | None:
        tenant = self.rng.choice(self.tenants)
        kind = self.rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        planned = getattr(self, f"_plan_{kind}")(tenant, self.registries[tenant.name])
        if planned is None:
            return None
        method, path, body, args, op_id = planned
        return self.issue(tenant, kind, method, path, body, args, op_id)

    def next_id(self) -> str:
        self.seq += 1
        # fixed width, so no id is a substring of another: a forget redacts every reason containing its fact's text
        return f"c{self.number:03d}.{self.seq:07d}"

    # -- the operations: (method, path, JSON body or query params, args as recorded, op id) ------------
    def _plan_add(self, tenant: Tenant, reg: Registry):
        op_id = self.next_id()
        body = {"subject": self.rng.choice(SUBJECTS), "predicate": PREDICATE, "object": op_id,
                "object_is_entity": False, "valid_from": random_day(self.rng)}
        return "POST", "/v1/facts", body, dict(body), op_id

    def _plan_succeed(self, tenant: Tenant, reg: Registry):
        if (fact := reg.fact(self.rng)) is None:
            return None
        op_id = self.next_id()
        body = {"object": op_id, "at": random_day(self.rng)}
        return "POST", f"/v1/facts/{fact}/succeed", body, {"fact_id": fact, "subject": reg.facts.get(fact), **body}, op_id

    def _plan_correct(self, tenant: Tenant, reg: Registry):
        if (fact := reg.fact(self.rng)) is None:
            return None
        op_id = self.next_id()
        body = {"object": op_id}
        return "POST", f"/v1/facts/{fact}/correct", body, {"fact_id": fact, "subject": reg.facts.get(fact), **body}, op_id

    def _plan_end(self, tenant: Tenant, reg: Registry):
        if (fact := reg.fact(self.rng)) is None:
            return None
        body = {"at": random_day(self.rng)}
        return "POST", f"/v1/facts/{fact}/end", body, {"fact_id": fact, **body}, self.next_id()

    def _plan_retract(self, tenant: Tenant, reg: Registry):
        if (fact := reg.fact(self.rng)) is None:
            return None
        op_id = self.next_id()
        return "POST", f"/v1/facts/{fact}/retract", {"reason": op_id}, {"fact_id": fact, "reason": op_id}, op_id

    def _plan_forget(self, tenant: Tenant, reg: Registry):
        if (fact := reg.fact(self.rng)) is None:
            return None
        op_id = self.next_id()
        body = {"reason": op_id, "actor": ACTOR}
        return "POST", f"/v1/items/{fact}/forget", body, {"fact_id": fact, **body}, op_id

    def _plan_resolve(self, tenant: Tenant, reg: Registry):
        try:  # choosing the target is a read of its own, not an operation of the history
            answer = self.http.get(f"{self.servers[self.server]}/v1/conflicts", headers=self._headers(tenant))
        except httpx.TransportError:
            self.server = (self.server + 1) % len(self.servers)
            return None
        items = answer.json().get("items", []) if answer.status_code == 200 else []
        if not items:
            return None
        conflict = self.rng.choice(items)
        op_id = self.next_id()
        body = {"decision": "reject", "reason": op_id}
        args = {"conflict_id": conflict["conflict_id"], "fact_id": conflict["challenger"]["fact_id"], **body}
        return "POST", f"/v1/conflicts/{conflict['conflict_id']}/resolve", body, args, op_id

    def _plan_read(self, tenant: Tenant, reg: Registry):
        valid_at = datetime.fromisoformat(random_day(self.rng, spread=200)).replace(tzinfo=timezone.utc)
        if self.rng.random() < 0.5:
            valid_at += timedelta(seconds=self.rng.randint(0, 86_399))
        choice, known_at = self.rng.random(), None
        if choice < 0.35:
            known_at = reg.known_time(self.rng)
        elif choice < 0.55:  # a recent instant: a write with a smaller known time may still be committing
            known_at = utcnow() - timedelta(milliseconds=self.rng.randint(0, 500))
        elif choice < 0.75:
            span = (utcnow() - self.started).total_seconds()
            known_at = self.started + timedelta(seconds=self.rng.uniform(0, max(span, 0.0)))
        params = {"subject": self.rng.choice(SUBJECTS), "predicate": PREDICATE, "valid_at": iso(valid_at)}
        if known_at is not None:
            params["known_at"] = iso(known_at)
        args = {"subject": params["subject"], "predicate": PREDICATE, "valid_at": params["valid_at"],
                "known_at": params.get("known_at")}
        return "GET", "/v1/facts", params, args, self.next_id()

    # -- sending and recording ---------------------------------------------------------------------------
    def _headers(self, tenant: Tenant) -> dict[str, str]:
        return {"X-API-Key": tenant.key}

    def issue(self, tenant: Tenant, kind: str, method: str, path: str, body: dict, args: dict, op_id: str) -> Op:
        url = f"{self.servers[self.server]}{path}"
        args = {**args, "server": self.server}
        op = Op(id=op_id, client=self.number, tenant=tenant.name, kind=kind, args=args,  # type: ignore[arg-type]
                invoked=utcnow(), completed=None, outcome="unknown")
        try:
            if method == "GET":
                items, answer = self._read_pages(url, tenant, body)
            else:
                answer = self.http.post(url, json=body, headers=self._headers(tenant))
                items = []
        except (httpx.ConnectError, httpx.ConnectTimeout):
            op.completed, op.outcome, op.code = utcnow(), "refused", "connect_failed"
            self.server = (self.server + 1) % len(self.servers)
        except httpx.TimeoutException:
            op.completed, op.code = utcnow(), "timeout"
        except httpx.TransportError:
            op.completed, op.code = utcnow(), "connection_lost"
            self.server = (self.server + 1) % len(self.servers)
        else:
            op.completed = utcnow()
            self._record_answer(op, answer, items)
        if op.outcome == "ok":
            self.registries[tenant.name].note(op)
        self.history.add(op)
        return op

    def _read_pages(self, url: str, tenant: Tenant, params: dict) -> tuple[list[dict], httpx.Response]:
        return read_pages(self.http, url, params, self._headers(tenant))

    def _record_answer(self, op: Op, answer: httpx.Response, items: list[dict]) -> None:
        try:
            data = answer.json()
        except ValueError:
            data = {}
        if answer.status_code >= 500:
            op.code = data.get("code") or f"http_{answer.status_code}"
            op.outcome = "refused" if op.code in REFUSED_5XX else "unknown"
            return
        if answer.status_code >= 400:
            op.outcome, op.code = "refused", data.get("code") or f"http_{answer.status_code}"
            return
        op.outcome = "ok"
        if op.kind == "read":
            op.rows = [row_of(i) for i in items]
            op.tombstones = [i["fact_id"] for i in items if i.get("tombstone") is not None]
            return
        result = data.get("result")
        returned = result if isinstance(result, list) else [result] if isinstance(result, dict) and "fact_id" in result \
            and "version_id" in result else []
        op.rows = [row_of(i) for i in returned]
        op.known_at = write_known_at(returned, data.get("cascade"))


def read_pages(http: httpx.Client, url: str, params: dict, headers: dict) -> tuple[list[dict], httpx.Response]:
    """Every page of an as-of read (dated items, then undated, each version once), and the last answer (a non-200
    one ends the reading)."""
    items: list[dict] = []
    cursor = None
    while True:
        answer = http.get(url, params={**params, **({"cursor": cursor} if cursor else {})}, headers=headers)
        if answer.status_code != 200:
            return items, answer
        page = answer.json()
        for item in page.get("items", []) + page.get("undated", []):
            if all(i["version_id"] != item["version_id"] for i in items):
                items.append(item)
        cursor = page.get("next_cursor")
        if not cursor:
            return items, answer
