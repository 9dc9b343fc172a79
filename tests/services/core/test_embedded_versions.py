"""Issue 8 §3: every path that creates a believed version gives it an embedding of its readable statement,
computed before the write transaction opens."""

from __future__ import annotations

import hashlib
import math
import random
from datetime import datetime, timezone

import pytest

import credo
from credo.schema.provenance import Candidate
from credo.services.adapters.extractors import ScriptedExtractor
from credo.store import Store
from tests.messages import messages

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)


class _Q:  # raw queries for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_UNEMBEDDED = _Q("MATCH (f:Fact {tenant: $tenant}) WHERE f.known_to IS NULL AND f.embedding IS NULL "
                 "RETURN f.statement AS statement, f.state AS state ORDER BY statement")
_BELIEVED = _Q("MATCH (f:Fact {tenant: $tenant}) WHERE f.known_to IS NULL RETURN count(f) AS n")
_EMBEDDING = _Q("MATCH (f:Fact {tenant: $tenant, fact_id: $fact_id}) WHERE f.known_to IS NULL "
                "RETURN f.statement AS statement, f.embedding AS embedding")


class FakeEmbedder:
    """Deterministic 384-dim unit vectors from a hash of the text; records every text and whether a write
    transaction was open when it was asked."""

    dimension = 384

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.inside_write = 0
        self.writing = False

    def vector(self, text: str) -> list[float]:
        rng = random.Random(hashlib.sha256(text.encode()).digest())
        raw = [rng.uniform(-1.0, 1.0) for _ in range(self.dimension)]
        norm = math.sqrt(sum(x * x for x in raw))
        return [x / norm for x in raw]

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.texts += list(texts)
        self.inside_write += self.writing
        return [self.vector(t) for t in texts]


msg = messages(T0, "alice")


@pytest.fixture
def embedded(neo4j_db, tenant, clock, monkeypatch):
    """A store with the fake embedder, whose database flags when a write transaction is running."""
    fake = FakeEmbedder()
    real_write = neo4j_db.write

    def flagged(work):
        fake.writing = True
        try:
            return real_write(work)
        finally:
            fake.writing = False

    monkeypatch.setattr(neo4j_db, "write", flagged)
    return Store(neo4j_db, tenant=tenant, embedder=fake, _clock=clock, _owns_db=False), fake


def unembedded(store):
    return [(r["statement"], r["state"]) for r in store._ctx.db.query(_UNEMBEDDED, tenant=store.tenant)]


def test_every_path_of_a_mixed_timeline_leaves_every_believed_version_embedded_with_readable_text(embedded, clock):
    store, fake = embedded
    checks = []

    def check(step):
        checks.append((step, unembedded(store)))

    # given facts added one by one and in a batch, a text literal among them
    clock.at("2025-01-01")
    alice = store.add_fact("Acme", "owned_by", "Alice", valid_from="2024-01-01")
    check("add_fact")
    motto, _owner = store.add_facts([
        {"subject": "Acme", "predicate": "motto", "object": credo.text("Measure twice, cut once")},
        {"subject": "Globex", "predicate": "owned_by", "object": "Carol", "valid_from": "2023-01-01"},
    ])
    check("add_facts")
    city = store.add_fact("Acme", "based_in", "Paris", valid_from="2020-01-01")
    store.correct_fact(city.fact_id, statement="Acme is headquartered in Paris")
    check("correct statement")
    store.correct_fact(city.fact_id, object="Lyon")
    check("correct object")
    ceo = store.add_fact("Acme", "ceo", "Dana", valid_from="2021-01-01")
    store.succeed_fact(ceo.fact_id, object="Erin", at="2023-01-01")
    check("succeed_fact")
    store.end_fact(_owner.fact_id, at="2024-06-01")
    check("end_fact")
    store.write_range("Acme", "owned_by", "Frank", valid_from="2024-03-01", valid_to="2024-04-01")
    check("write_range")

    # the write gate: remember, replaces, extraction, admission, acceptance
    clock.at("2025-03-01T10:00:00+00:00")
    messages = store.ingest_messages("s1", [
        msg(0, "Let's talk about the ledger."),
        msg(1, "The ledger config names Postgres 15.", origin="agent", role="assistant", author="agent"),
        msg(2, "We deploy on Fridays. The ledger runs on Postgres 15. Agreed, that config is right."),
    ])
    deploy = store.turn("s1").remember("We deploy on Fridays", "The team deploys on Fridays")
    check("remember")
    store.turn("s1").remember("We deploy on Fridays", "Deploys happen on Fridays", replaces=deploy.fact_id)
    check("remember replaces")
    final = Candidate(statement="The ledger service runs on Postgres 15", subject="ledger", predicate="database",
                      object="Postgres 15", quote="The ledger runs on Postgres 15", source_index=2)
    agreed = Candidate(statement="The ledger config names Postgres 15", subject="ledger config", predicate="names",
                       object="Postgres 15", source_index=1, accepted_index=2)
    result = store.extract("s1", ScriptedExtractor([[final, agreed]]), segment_size=10)
    check("extract")
    ledger_db = next(f for f in result.facts if f.statement == final.statement)
    store.admit(ledger_db.fact_id, by="alice")
    check("admit")
    plain = store.add_fact("billing API", "cache", "disabled", statement="The billing API cache is disabled")
    store.cite(plain.fact_id, messages[1].source_id)  # the agent's conclusion, so a human message can accept it
    store.accept(plain.fact_id, {"session_id": "s1", "index": 2})
    check("accept")

    # merges
    a = store.add_fact("Initech", "uses", "Jira", statement="Initech uses Jira")
    b = store.add_fact("Initech", "uses", "Jira", valid_from="2022-01-01", statement="Initech tracks work in Jira")
    store.merge_facts([a.fact_id, b.fact_id], statement="Initech uses Jira for tracking")
    check("merge_facts")

    # conflicts resolved each way
    clock.at("2025-04-01")
    for subject in ("Hooli", "Umbrella", "Stark", "Wayne"):
        store.add_fact(subject, "owned_by", "Gina", valid_from="2024-01-01")
        store.add_fact(subject, "owned_by", "Hank", valid_from="2024-08-01")
    by_subject = {c.challenger.subject: c.conflict_id for c in store.conflicts()}
    store.resolve_conflict(by_subject["Hooli"], decision="succession", at="2024-08-01")
    store.resolve_conflict(by_subject["Umbrella"], decision="correction")
    store.resolve_conflict(by_subject["Stark"], decision="reject", reason="wrong source")
    store.resolve_conflict(by_subject["Wayne"], decision="split_scope", scope={"env": "staging"})
    check("resolutions")
    store.reverify(city.fact_id, outcome="holds", note="checked with the registry")
    check("reverify")

    # then no believed-now version lacks an embedding after any step
    assert [(step, missing) for step, missing in checks if missing] == []
    assert store._ctx.db.query(_BELIEVED, tenant=store.tenant)[0]["n"] >= 20
    # and the text literal is embedded from its text, never from the Python repr of the value
    [row] = store._ctx.db.query(_EMBEDDING, tenant=store.tenant, fact_id=motto.fact_id)
    assert "Measure twice, cut once" in row["statement"] and "type=" not in row["statement"]
    assert row["embedding"] == pytest.approx(fake.vector(row["statement"]))
    assert not [t for t in fake.texts if "type=" in t or "value=" in t]
    assert "The billing API cache is disabled" in fake.texts and "Initech uses Jira for tracking" in fake.texts
    # and nothing was embedded while a write transaction was open
    assert fake.inside_write == 0
