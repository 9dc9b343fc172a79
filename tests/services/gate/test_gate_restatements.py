"""Issue 24 §8 and DESIGN §3 restatements, as timelines on a real store: a plain human restatement confirms an
earlier hedged fact and keeps both quotes; a later hedge from the person who stated it opens the question; a
paraphrase joined at write keeps the strongest evidence of the sources stating it; nothing an agent writes raises
evidence; a merge still gives the weakest."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

import credo

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

MONDAY = datetime(2025, 3, 3, 9, 0, tzinfo=timezone.utc)
TUESDAY = MONDAY + timedelta(days=1)
WINDOW = {"subject": "maintenance window", "predicate": "day", "object": "Sunday"}


def say(store, clock, session, index, text, *, author="alice", at=MONDAY):
    """A human message, after the agent's reply to whatever came before (so it opens a new turn)."""
    clock.at(at + timedelta(minutes=index))
    rows = [{"index": index, "role": "user", "origin": "human_input", "author": author, "text": text,
             "at": at + timedelta(minutes=index)}]
    if index:
        rows.insert(0, {"index": index - 1, "role": "assistant", "origin": "agent", "author": "agent",
                        "text": "Noted.", "at": at + timedelta(minutes=index - 1)})
    store.ingest_messages(session, rows)
    return store.turn(session)


@pytest.mark.parametrize("session, author", [("s1", "alice"), ("s2", "bob")])  # the same person, or another one
def test_a_plain_restatement_confirms_an_earlier_hedged_fact_keeping_both_quotes(store, clock, session, author):
    # given Alice's guess on Monday, remembered as a hypothesis
    hedged = say(store, clock, "s1", 0, "I guess the window is Sunday.").remember(
        "the window is Sunday", "The maintenance window is Sunday", **WINDOW)
    assert (hedged.evidence, hedged.epistemic) == ("stated", "hypothesis")
    # when on Tuesday a person says it plainly
    plain = say(store, clock, session, 2, "The window is Sunday.", author=author, at=TUESDAY).remember(
        "The window is Sunday", "The maintenance window is Sunday", **WINDOW)
    # then it is the same fact, now confirmed in a new version
    assert plain.fact_id == hedged.fact_id and plain.version_id != hedged.version_id
    assert (plain.evidence, plain.epistemic) == ("stated", "confirmed")
    [served] = store.facts("maintenance window", "day", include_undated=True)
    assert (served.version_id, served.epistemic) == (plain.version_id, "confirmed")
    # with both quotes (both SOURCED_FROM edges) on the confirmed version
    tree = store.why(plain.fact_id)
    assert sorted((s.author, s.quote) for s in tree.sources) == sorted(
        [("alice", "the window is Sunday"), (author, "The window is Sunday")])
    # and the history shows the step, as does the ledger
    first, second = store.history(plain.fact_id)
    assert (first.epistemic, second.epistemic) == ("hypothesis", "confirmed")
    assert first.end_reason == f"confirmed: stated without a hedge in session {session!r} message #2"
    recorded = [e.detail["facts"] for e in store.audit().items if e.operation == "add_facts"]
    assert [f["outcome"] for f in recorded[-1]] == ["confirmed"]


def test_a_later_hedge_from_the_person_who_stated_it_opens_the_question_without_downgrading(store, clock):
    # given Alice's plain statement, confirmed
    plain = say(store, clock, "s1", 0, "The window is Sunday.").remember(
        "The window is Sunday", "The maintenance window is Sunday", **WINDOW)
    assert plain.epistemic == "confirmed"
    # when on Tuesday she hedges it
    hedged = say(store, clock, "s1", 2, "Hmm, I guess the window is Sunday.", at=TUESDAY).remember(
        "the window is Sunday", "The maintenance window is Sunday", **WINDOW)
    # then it is not made a hypothesis again: it stays confirmed and stated, with both quotes ...
    assert hedged.fact_id == plain.fact_id
    assert (hedged.evidence, hedged.epistemic) == ("stated", "confirmed")
    assert len(store.why(plain.fact_id).sources) == 2
    # ... but the question is open: it awaits re-verification, is no longer served as current, and says why
    assert hedged.state == "stale" and "alice hedged it in session 's1' message #2" in hedged.stale_cause
    assert store.facts("maintenance window", "day", include_undated=True) == []
    package = store.context("maintenance window")
    assert package.current == []
    [item] = package.open
    assert (item.open_kind, item.fact.fact_id) == ("stale", plain.fact_id) and "alice hedged it" in item.cause
    assert [i.id for i in store.stale()] == [plain.fact_id]
    # and a re-verification closes it
    store.reverify(plain.fact_id, outcome="holds", note="Alice checked the calendar")
    assert [f.fact_id for f in store.facts("maintenance window", "day", include_undated=True)] == [plain.fact_id]


def test_a_hedged_paraphrase_from_the_person_who_stated_it_joins_as_an_alias_and_opens_the_question(store, clock):
    # given Alice's plain statement of a text claim
    fields = {"subject": "maintenance window", "predicate": "schedule"}
    plain = say(store, clock, "s1", 0, "The maintenance window is Sunday night.").remember(
        "The maintenance window is Sunday night", "The maintenance window is Sunday night", **fields)
    # when she later words it otherwise, hedged
    hedged = say(store, clock, "s1", 2, "I guess the maintenance window is Sunday night!", at=TUESDAY).remember(
        "the maintenance window is Sunday night!", "the maintenance window is Sunday night!", **fields)
    # then a new version keeps her new wording and both quotes, still confirmed, and awaits re-verification
    assert hedged.fact_id == plain.fact_id and hedged.version_id != plain.version_id
    assert hedged.aliases == ("the maintenance window is Sunday night!",)
    assert (hedged.epistemic, hedged.state) == ("confirmed", "stale")
    assert len(store.why(plain.fact_id).sources) == 2
    assert [(i.id, i.version_id) for i in store.stale()] == [(plain.fact_id, hedged.version_id)]
    recorded = [e.detail["facts"] for e in store.audit().items if e.operation == "add_facts"]
    assert [f["outcome"] for f in recorded[-1]] == ["questioned"]


def test_a_hedge_from_another_person_leaves_a_confirmed_fact_confirmed_and_served(store, clock):
    # given Alice's plain statement; when Bob, in his own session, only guesses the same
    plain = say(store, clock, "s1", 0, "The window is Sunday.").remember(
        "The window is Sunday", "The maintenance window is Sunday", **WINDOW)
    other = say(store, clock, "s2", 0, "I guess the window is Sunday.", author="bob", at=TUESDAY).remember(
        "the window is Sunday", "The maintenance window is Sunday", **WINDOW)
    # then Alice's word still confirms it; Bob's guess is one more source, and no question is opened
    assert other.fact_id == plain.fact_id
    assert (other.epistemic, other.state) == ("confirmed", "reinforced")
    assert {s.author for s in store.why(plain.fact_id).sources} == {"alice", "bob"}
    assert store.stale() == []


def test_a_paraphrase_joined_at_write_keeps_the_strongest_evidence_of_the_sources_stating_it(store, clock):
    # given Alice's guess, a text claim (the content is the object)
    fields = {"subject": "maintenance window", "predicate": "schedule"}
    hedged = say(store, clock, "s1", 0, "I guess the maintenance window is Sunday night.").remember(
        "the maintenance window is Sunday night", "The maintenance window is Sunday night", **fields)
    # when an agent's write says it in other words (no human quoted), then nothing is raised
    agent = store.add_fact("maintenance window", "schedule", credo.text("the maintenance window is Sunday night."),
                           statement="the maintenance window is Sunday night.")
    assert agent.fact_id == hedged.fact_id and (agent.evidence, agent.epistemic) == ("stated", "hypothesis")
    # when Bob states it plainly in his own words
    bob = say(store, clock, "s2", 0, "The maintenance window is Sunday night!", author="bob", at=TUESDAY).remember(
        "The maintenance window is Sunday night!", "The maintenance window is Sunday night!", **fields)
    # then it is still one fact: his wording an alias, his quote a source, and it is confirmed
    assert bob.fact_id == hedged.fact_id
    assert (bob.evidence, bob.epistemic) == ("stated", "confirmed")
    assert "The maintenance window is Sunday night!" in bob.aliases
    assert {s.author for s in store.why(bob.fact_id).sources} == {"alice", "bob"}


def test_an_agents_exact_restatement_never_confirms_a_hypothesis(store, clock):
    hedged = say(store, clock, "s1", 0, "Maybe the window is Sunday.").remember(
        "the window is Sunday", "The maintenance window is Sunday", **WINDOW)
    again = store.add_fact("maintenance window", "day", "Sunday", statement="The maintenance window is Sunday")
    assert again.fact_id == hedged.fact_id and (again.evidence, again.epistemic) == ("stated", "hypothesis")


def test_merging_a_stated_fact_with_an_unvouched_one_still_gives_the_weakest_evidence(store, clock):
    # given a stated fact for the spring and an unvouched one for the summer (one claim, touching intervals)
    stated = say(store, clock, "m", 0, "The export runs at 02:00 UTC.").remember(
        "The export runs at 02:00 UTC", "The export runs at 02:00 UTC", subject="export", predicate="runs_at",
        object="02:00 UTC", valid_from="2024-03", valid_to="2024-06")
    unvouched = store.add_fact("export", "runs_at", "02:00 UTC", valid_from="2024-06", valid_to="2024-09")
    assert unvouched.fact_id != stated.fact_id
    # when they are merged, then the merge is as weak as its weakest input
    merged = store.merge_facts([stated.fact_id, unvouched.fact_id], statement="The export runs at 02:00 UTC")
    assert merged.evidence == "unknown"
