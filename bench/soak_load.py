"""The soak's clients: each a thread with its own HTTP connection, issuing a mix of writes (add_fact, succeed_fact,
a conversation turn then remember, then the person's yes and consent where the policy surfaces the write) and reads
(search, context, facts as of a past known time, why). Every call is timed and its outcome recorded in the current
window; an unexpected status (anything not 2xx) or a transport error is an error, its first bodies kept."""

from __future__ import annotations

import random
import threading
import time
from datetime import date, datetime, timedelta, timezone

import httpx

from soak_report import Window

PEOPLE = ["Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Julia", "Kofi", "Lena"]
# weight of each step of a client's loop; a `turn` is four writes (ingest, remember, ingest the yes, consent)
MIX = {"add_fact": 10, "succeed_fact": 10, "turn": 6, "facts": 22, "search": 18, "context": 16, "why": 18}
KEPT_BODIES = 5


class Recorder:
    """The current window's measurements, shared by the clients; the monitor rolls it over at each boundary."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.lock = threading.Lock()
        self.bodies: list[str] = []  # the first few error bodies of the whole run

    def record(self, op: str, kind: str, ms: float) -> None:
        """A call that answered 2xx."""
        with self.lock:
            getattr(self.window, kind).append(ms)
            self.window.ops[op] += 1

    def error(self, op: str, detail: str) -> None:
        """An unexpected status or a transport error."""
        with self.lock:
            self.window.errors += 1
            self.window.ops[f"{op} (error)"] += 1
            if len(self.bodies) < KEPT_BODIES:
                self.bodies.append(f"{op}: {detail[:500]}")

    def roll(self, new: Window) -> Window:
        """Start `new`; the finished window is returned."""
        with self.lock:
            done, self.window = self.window, new
        return done


class Shared:
    """What every client may read: facts written so far and the known times their writes answered."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.facts: list[str] = []  # fact ids, for why
        self.subjects: list[str] = []  # the accounts, for as-of reads
        self.known: list[str] = []

    def add(self, fact: dict, *, subject: str | None = None) -> None:
        """Note a written fact, its known time, and the account it is about when it opened one."""
        with self.lock:
            self.facts.append(fact["fact_id"])
            self.known.append(fact["known_from"])
            if subject:
                self.subjects.append(subject)

    def pick(self, rng: random.Random) -> tuple[str | None, str | None, str | None]:
        """A random fact id, account and known time, each None while nothing was written."""
        with self.lock:
            if not self.subjects:
                return None, None, None
            return rng.choice(self.facts), rng.choice(self.subjects), rng.choice(self.known)


class Client:
    """One load client: its own chains to succeed, its own sessions, a seeded mix of calls."""

    def __init__(self, n: int, url: str, key: str, recorder: Recorder, shared: Shared, stop: threading.Event) -> None:
        self.n, self.recorder, self.shared, self.stop = n, recorder, shared, stop
        self.rng = random.Random(n)
        self.http = httpx.Client(base_url=url, headers={"X-API-Key": key}, timeout=60)
        self.chains: list[list] = []  # [current fact_id, subject, successions so far]
        self.turns = 0

    def run(self) -> None:
        """Issue calls until told to stop."""
        ops, weights = list(MIX), list(MIX.values())
        try:
            while not self.stop.is_set():
                step = self.rng.choices(ops, weights)[0]
                try:
                    getattr(self, step)()
                except (KeyError, IndexError, TypeError, ValueError) as exc:  # an answer not shaped as documented
                    self.recorder.error(step, f"unexpected answer: {exc!r}")
        finally:
            self.http.close()

    def call(self, op: str, kind: str, method: str, path: str, **kwargs) -> dict | None:
        """Time one call; record it; the answer's JSON when it was 2xx, else None (an error recorded)."""
        started = time.perf_counter()
        try:
            answer = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            self.recorder.error(op, f"{type(exc).__name__}: {exc}")
            return None
        ms = (time.perf_counter() - started) * 1000
        if not 200 <= answer.status_code < 300:
            self.recorder.error(op, f"{answer.status_code} {answer.text}")
            return None
        self.recorder.record(op, kind, ms)
        return answer.json()

    # -- writes ----------------------------------------------------------------------------------

    def add_fact(self) -> None:
        """A new account owned by someone, from 2020-01-01 (a new subject each time: the data grows)."""
        subject = f"account {self.n}-{len(self.chains)}"
        made = self.call("add_fact", "writes", "POST", "/v1/facts", json={
            "subject": subject, "predicate": "owned_by", "object": self.rng.choice(PEOPLE), "valid_from": "2020-01-01"})
        if made:
            self.chains.append([made["result"]["fact_id"], subject, 0])
            self.shared.add(made["result"], subject=subject)

    def succeed_fact(self) -> None:
        """The world changed: one of this client's accounts passes to someone else a day after its last change."""
        if not self.chains:
            return self.add_fact()
        chain = self.rng.choice(self.chains)
        chain[2] += 1
        at = date(2020, 1, 1) + timedelta(days=chain[2])
        made = self.call("succeed_fact", "writes", "POST", f"/v1/facts/{chain[0]}/succeed",
                         json={"object": self.rng.choice(PEOPLE), "at": at.isoformat()})
        if made:
            chain[0] = made["result"]["fact_id"]
            self.shared.add(made["result"])

    def turn(self) -> None:
        """A person says something, the agent remembers their words; where the policy surfaces the write, the agent
        shows the line, the person says yes, and their yes is relayed as consent."""
        self.turns += 1
        session, person = f"soak-{self.n}-{self.turns}", self.rng.choice(PEOPLE)
        claim = f"{person} leads the team of project P{self.n}x{self.turns}"
        now = datetime.now(timezone.utc)
        said = self.call("ingest_messages", "writes", "POST", f"/v1/sessions/{session}/messages", json={"messages": [
            {"index": 0, "role": "user", "origin": "human_input", "author": person.lower(), "text": claim + ".",
             "at": now.isoformat()}]})
        if not said:
            return
        made = self.call("remember", "writes", "POST", f"/v1/sessions/{session}/remember",
                         json={"quote": claim, "content": claim, "valid_from": "2025-01-01"})
        if not made:
            return
        fact = made["result"]
        if not (fact.get("surface") and fact.get("state") == "candidate"):
            self.shared.add(fact)  # the tenant's policy serves it at once: nothing to consent to
            return
        yes = self.call("ingest_messages", "writes", "POST", f"/v1/sessions/{session}/messages", json={"messages": [
            {"index": 1, "role": "assistant", "origin": "agent", "author": "agent", "text": fact["surface"],
             "at": (now + timedelta(seconds=1)).isoformat()},
            {"index": 2, "role": "user", "origin": "human_input", "author": person.lower(),
             "text": "Yes, that is right.", "at": (now + timedelta(seconds=2)).isoformat()}]})
        if not yes:
            return
        done = self.call("consent", "writes", "POST", f"/v1/facts/{fact['fact_id']}/consent",
                         json={"decision": "accept", "message_id": yes["result"][-1]["source_id"]})
        if done:
            self.shared.add(done["result"]["fact"])

    # -- reads -----------------------------------------------------------------------------------

    def facts(self) -> None:
        """An as-of read: an account's owner at a random valid time, as believed at a random earlier known time."""
        _, subject, known = self.shared.pick(self.rng)
        if subject is None:
            return self.add_fact()
        at = date(2020, 1, 1) + timedelta(days=self.rng.randrange(0, 60))
        self.call("facts", "reads", "GET", "/v1/facts",
                  params={"subject": subject, "valid_at": at.isoformat(), "known_at": known})

    def search(self) -> None:
        """Hybrid search for a person or a project."""
        project = f"project P{self.rng.randrange(8)}x{self.rng.randrange(1, 50)}"
        query = self.rng.choice([self.rng.choice(PEOPLE), project, "who owns the account"])
        self.call("search", "reads", "GET", "/v1/search", params={"query": query, "limit": 10})

    def context(self) -> None:
        """A context package for a person (current, historical, open)."""
        self.call("context", "reads", "GET", "/v1/context", params={"query": f"{self.rng.choice(PEOPLE)}"})

    def why(self) -> None:
        """Why a random fact is held."""
        fact_id, _, _ = self.shared.pick(self.rng)
        if fact_id is None:
            return self.add_fact()
        self.call("why", "reads", "GET", f"/v1/facts/{fact_id}/why")
