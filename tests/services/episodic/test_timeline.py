"""The timeline: the episodes of an entity or a session read by time (valid time, then known time), paged by key in
its query, within the caller's clearance; other kinds of facts never appear in it."""

from __future__ import annotations

import pytest

from credo.schema.api_keys import Principal
from credo.schema.errors import InvalidInput
from credo.schema.pages import After
from credo.services.adapters.extractors import ScriptedExtractor


def _episode(store, what: str, when: str | None, **fields):
    return store.add_fact("deploy pipeline", "ran", what, kind="episodic", valid_from=when,
                          statement=f"the deploy pipeline ran {what}", **fields)


def test_an_entitys_episodes_come_in_time_order_paged_by_key_and_only_those_the_caller_may_see(store, clock):
    # given episodes about one entity written out of order (one undated: placed at its known time), a secret one,
    # and a semantic fact about the same entity
    clock.at("2025-03-10T12:00:00+00:00")
    third = _episode(store, "tests", "2025-03-03T09:00:00+00:00")
    first = _episode(store, "build", "2025-03-01T09:00:00+00:00")
    secret = _episode(store, "with the prod key", "2025-03-02T09:00:00+00:00", sensitivity="secret")
    second = _episode(store, "lint", "2025-03-02T10:00:00+00:00")
    clock.at("2025-03-11T12:00:00+00:00")
    undated = _episode(store, "canary", None)
    store.add_fact("deploy pipeline", "owned_by", "Alice")  # semantic: not an episode
    # when all of it is read by a caller cleared for all
    found = store.timeline(entity="deploy pipeline")
    # then the episodes come by valid time (the undated one at its known time), nothing else
    assert [f.fact_id for f in found] == [first.fact_id, secret.fact_id, second.fact_id, third.fact_id,
                                          undated.fact_id]
    # and a window [from_, to) keeps those placed inside it
    window = store.timeline(entity="deploy pipeline", from_="2025-03-02", to="2025-03-03T09:00:00+00:00")
    assert [f.fact_id for f in window] == [secret.fact_id, second.fact_id]
    # and a caller cleared for internal reads never sees the secret one, page after page
    internal = store.for_principal(Principal(tenant=store.tenant, clearance="internal"))
    pages, after = [], None
    while True:
        page = internal.timeline(entity="deploy pipeline", page=After(after, 2))
        pages.append([f.fact_id for f in page])
        after = page.next_after
        if after is None:
            break
    assert pages == [[first.fact_id, second.fact_id], [third.fact_id, undated.fact_id]]


def test_a_sessions_timeline_holds_the_episodes_stated_in_its_messages(store, clock):
    clock.at("2025-04-01T10:00:00+00:00")
    store.ingest_messages("s-incident", [
        {"index": 0, "role": "user", "origin": "human_input", "author": "bob",
         "text": "The API went down at 9:00.", "at": "2025-04-01T09:01:00+00:00"},
        {"index": 1, "role": "user", "origin": "human_input", "author": "bob",
         "text": "We rolled back at 9:20.", "at": "2025-04-01T09:21:00+00:00"},
    ])
    extractor = ScriptedExtractor([[
        {"statement": "We rolled back the API", "subject": "API", "predicate": "rolled_back", "object": "9:20",
         "quote": "We rolled back at 9:20.", "source_index": 1, "kind": "episodic",
         "valid_from": "2025-04-01T09:20:00+00:00"},
        {"statement": "The API went down", "subject": "API", "predicate": "went_down", "object": "9:00",
         "quote": "The API went down at 9:00.", "source_index": 0, "kind": "episodic",
         "valid_from": "2025-04-01T09:00:00+00:00"},
    ]])
    down_then_back = store.extract("s-incident", extractor).facts
    for fact in down_then_back:
        store.admit(fact.fact_id, by="episodic policy")
    store.add_fact("API", "went_down", "yesterday", kind="episodic")  # about the API, but in no message of the session
    found = store.timeline(session="s-incident")
    assert [(f.predicate, f.quote) for f in found] == [("went_down", "The API went down at 9:00."),
                                                       ("rolled_back", "We rolled back at 9:20.")]
    assert store.timeline(session="another session") == []


def test_a_timeline_reads_one_session_or_one_entity(store):
    for fields, field in (({}, "session"), ({"session": "s1", "entity": "API"}, "session"),
                          ({"entity": "API", "from_": "2025-02", "to": "2025-01"}, "to")):
        with pytest.raises(InvalidInput) as refused:
            store.timeline(**fields)
        assert refused.value.field == field
