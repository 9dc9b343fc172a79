"""Preference validation off is a strict no-op (DESIGN §12, issue 27 item 3): the same scripted writes and reads on a
tenant that never touched the flag and on one that set it off answer byte for byte the same (ids, which are random,
normalised alike), run the same queries and no query of preference validation; outcome reports and posterior reads
are refused naming the flag, and write nothing."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest

from credo.schema.errors import ConfigError
from credo.store import Store
from tests.conftest import Clock
from tests.services.preferences.conftest import remember_preference

PREFERENCE_QUERIES = {p.stem for p in (Path(__file__).resolve().parents[3] / "cypher" / "preferences").glob("*.cypher")}
class _Q:  # raw Cypher for the tests only
    def __init__(self, text: str) -> None:
        self.text = text


_ID = re.compile(r"\b(?:[a-z]{1,3})_[0-9a-f]{12,}\b")


def _store(neo4j_db) -> Store:
    """A store on a tenant of its own, with a clock of its own starting where the other's does."""
    return Store(neo4j_db, tenant=f"t_{uuid.uuid4().hex[:12]}", embedder=None, _clock=Clock(), _owns_db=False)


def _normalised(answers: list, tenant: str) -> str:
    """The answers as one JSON text, every id replaced by its order of first appearance (alike in both runs)."""
    text = json.dumps(answers, sort_keys=True, default=str).replace(tenant, "<tenant>")
    seen: dict[str, str] = {}
    return _ID.sub(lambda m: seen.setdefault(m.group(0), f"<id{len(seen)}>"), text)


def _scenario(store: Store, clock: Clock) -> list:
    """Remember a preference and a plain fact, then read them every way a person or an agent would."""
    preference = remember_preference(store, clock)
    other = store.turn("s").remember("the deploy window is Sunday", "The deploy window is Sunday",
                                     subject="deploy", predicate="window", object="Sunday")
    dump = lambda model: model.model_dump(mode="json")  # noqa: E731
    return [
        dump(preference), dump(other),
        dump(store.context("Alice")), dump(store.context("deploy")),
        dump(store.search("short answers")), dump(store.why(preference.fact_id)),
        [dump(f) for f in store.facts(subject="alice")], [dump(f) for f in store.history(preference.fact_id)],
        [dump(c) for c in store.conflicts(include_resolved=True)],
        [{k: v for k, v in dump(e).items() if k not in ("hash", "prev_hash", "seq", "at")}
         for e in store.audit().items if e.operation != "set_tenant_flag"],
    ]


def test_with_the_flag_off_reads_and_writes_are_byte_identical_to_a_tenant_that_never_had_it(
        neo4j_db, queries_run):
    untouched, off = _store(neo4j_db), _store(neo4j_db)
    # given one tenant that never touched the flag, and one that turned it on and then explicitly off
    off.set_tenant_flag("preference_validation", enabled=True)
    off.set_tenant_flag("preference_validation", enabled=False)
    queries_run.clear()
    # when both run the same script
    plain = _scenario(untouched, untouched._ctx.clock)
    ran_plain = list(queries_run)
    queries_run.clear()
    flagged = _scenario(off, off._ctx.clock)
    ran_off = list(queries_run)
    # then every answer is the same, byte for byte, ids aside
    text = _normalised(plain, untouched.tenant)
    assert text == _normalised(flagged, off.tenant)
    assert "short answers without bullet points" in text and "Sunday" in text and not _ID.search(text)
    # and the same queries ran, none of preference validation's
    assert ran_off == ran_plain and "read_conflicts" in ran_off
    assert not PREFERENCE_QUERIES & set(ran_off), PREFERENCE_QUERIES & set(ran_off)


def test_with_the_flag_off_outcomes_and_posterior_reads_are_refused_naming_the_flag_and_write_nothing(
        store, clock, neo4j_db):
    preference = remember_preference(store, clock)
    for tenant_flag in (None, False):  # never set, then set off
        if tenant_flag is not None:
            store.set_tenant_flag("preference_validation", enabled=tenant_flag)
        events = len(store.audit().items)
        for outcome in ("accepted", "rejected", "revoked", "unknown"):
            with pytest.raises(ConfigError, match="preference_validation"):
                store.preference_outcome(preference.fact_id, outcome)
        with pytest.raises(ConfigError, match="preference_validation"):
            store.preference(preference.fact_id)
        assert len(store.audit().items) == events
    [row] = neo4j_db.query(_Q("MATCH (n) WHERE n.tenant = $tenant AND (n:PreferencePosterior OR n:PreferenceDrift) "
                              "RETURN count(n) AS n"), tenant=store.tenant)
    assert row["n"] == 0


def test_turned_off_again_the_posterior_is_kept_but_no_longer_moves(store, clock):
    store.set_tenant_flag("preference_validation", enabled=True)
    preference = remember_preference(store, clock)
    store.preference_outcome(preference.fact_id, "accepted")
    store.set_tenant_flag("preference_validation", enabled=False)
    with pytest.raises(ConfigError):
        store.preference_outcome(preference.fact_id, "accepted")
    store.set_tenant_flag("preference_validation", enabled=True)
    assert (store.preference(preference.fact_id).alpha, store.preference(preference.fact_id).beta) == (2, 1)
