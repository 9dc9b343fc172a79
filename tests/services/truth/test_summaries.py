"""Summaries with verifying traces: early cutoff, versioned states, and the OpenAI-compatible summarizer."""

from __future__ import annotations

import json

import pytest

from credo.schema.errors import InvalidInput
from credo.services.adapters.summarizers import ChatSummarizer, ListSummarizer


class Counting(ListSummarizer):
    def __init__(self, fixed: str | None = None) -> None:
        self.calls = 0
        self.fixed = fixed

    def summarize(self, topic, inputs):
        self.calls += 1
        return self.fixed if self.fixed is not None else super().summarize(topic, inputs)


def fact(store, name, **kw):
    return store.add_fact(name, "is", "rule", statement=name, valid_from="2025-01-01", **kw)


def test_inputs_reconfirmed_unchanged_turn_the_summary_green_without_running_the_summarizer(store, clock):
    p = fact(store, "premise")
    r = fact(store, "rule r", depends_on=[p.fact_id])
    counting = Counting()
    s = store.add_summary("notes", derived_from=[r.fact_id], summarizer=counting)
    clock.at("2025-03-01")
    store.correct_fact(p.fact_id, valid_to="2025-02-01")
    assert [x.state for x in store.summaries(states=["stale"])] == ["stale"]
    # when r is re-confirmed with its content unchanged
    clock.at("2025-03-02")
    held = store.reverify(r.fact_id, outcome="holds", note="checked by hand: still required")
    # then the summary is green again, the summarizer not re-run, and the text is the same
    assert [x.summary_id for x in held.cascade.restored] == [s.summary_id]
    again = store.rebuild(s.summary_id, summarizer=counting)
    assert counting.calls == 1 and again.text == s.text and again.state == "active"


def test_rebuild_with_identical_text_leaves_dependents_green_and_new_text_flags_them(store, clock):
    a = fact(store, "alpha")
    same = Counting(fixed="Deploy on Tuesdays")
    base = store.add_summary("digest", derived_from=[a.fact_id], summarizer=same)
    top = store.add_summary("weekly", derived_from=[base.summary_id], summarizer=ListSummarizer())
    clock.at("2025-03-01")
    store.correct_fact(a.fact_id, statement="alpha (corrected)")
    assert {x.summary_id for x in store.summaries(states=["stale"])} == {base.summary_id, top.summary_id}
    # identical text: the dependent turns green without being rebuilt
    rebuilt = store.rebuild(base.summary_id, summarizer=same)
    assert rebuilt.text == "Deploy on Tuesdays" and same.calls == 2
    assert [x.summary_id for x in rebuilt.cascade.restored] == [top.summary_id]
    assert {x.summary_id for x in store.summaries()} == {base.summary_id, top.summary_id}
    # new text: the dependent is flagged
    clock.at("2025-04-01")
    store.correct_fact(a.fact_id, statement="alpha (corrected twice)")
    changed = store.rebuild(base.summary_id, summarizer=Counting(fixed="Deploy on Wednesdays"))
    assert [x.summary_id for x in changed.cascade.summaries] == [top.summary_id]
    assert [x.summary_id for x in store.summaries()] == [base.summary_id]
    assert [x.id for x in store.stale()] == [top.summary_id]


def test_summaries_are_versioned_so_older_known_times_see_them_as_they_were(store, clock):
    a = fact(store, "alpha")
    s = store.add_summary("notes: alpha", derived_from=[a.fact_id])
    before = clock.at("2025-02-01")
    clock.at("2025-03-01")
    store.retract_fact(a.fact_id, reason="wrong")
    assert store.summaries() == []
    assert [x.state for x in store.summaries(known_at=before)] == ["active"]
    assert store.summary(s.summary_id).state == "stale"
    assert store.summary(s.summary_id, known_at=before).version_id == s.version_id


def test_a_summary_needs_served_inputs_and_writes_nothing_otherwise(store):
    with pytest.raises(InvalidInput) as refused:
        store.add_summary("notes", derived_from=[])
    assert refused.value.field == "derived_from"
    with pytest.raises(InvalidInput):
        store.add_summary("notes", derived_from=["s_nothing"])
    assert store.summaries(states=["active", "stale"]) == []


def test_chat_summarizer_builds_a_summary_from_an_openai_compatible_endpoint(store, chat_endpoint):
    from credo.services.adapters.llm_client import ChatClient
    from credo.settings import Settings

    with chat_endpoint(["- Deploy on weekdays only\n"]) as replay:
        client = ChatClient(Settings(llm_base_url=replay.url, llm_model="local"))
        a = fact(store, "Deploy on weekdays only")
        s = store.add_summary("deployment notes", derived_from=[a.fact_id], summarizer=ChatSummarizer(client))
    assert s.text == "- Deploy on weekdays only" and s.summarizer == "chat:local"
    [request] = replay.requests
    assert request["path"] == "/v1/chat/completions"
    assert "1. Deploy on weekdays only" in request["body"]["messages"][-1]["content"]


def test_a_rebuild_that_finds_no_input_loses_to_a_write_that_serves_one_again(store, monkeypatch):
    # given a summary whose one input was retracted, so a rebuild finds nothing served to build from
    from credo.schema.errors import RaceLost
    from credo.services.truth import summaries

    fact = store.add_fact("deploys", "happen_on", "weekdays", statement="Deploy on weekdays")
    s = store.add_summary("notes", derived_from=[fact.fact_id])
    store.retract_fact(fact.fact_id, reason="wrong")
    real, calls = summaries.resolve, []

    def served_again_inside_the_write(tx, tenant, refs, **kw):
        calls.append(refs)
        found = real(tx, tenant, refs, **kw)
        return found if len(calls) == 1 else [("an input served again", None)]

    monkeypatch.setattr(summaries, "resolve", served_again_inside_the_write)
    # when an input is served again between the rebuild's read and its write, then the rebuild answers the race
    with pytest.raises(RaceLost, match="rebuild again"):
        store.rebuild(s.summary_id, summarizer=ListSummarizer())
