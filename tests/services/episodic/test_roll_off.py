"""Roll-off is forgetting, verified: an episode older than its workflow's TTL (chat 24 h, incident 90 days, default
30 days; measured from its valid_from, or its first known time when undated) is forgotten through `forget` (its
tombstone, its ledger event, its residue report), and nothing else is; episodes are append-only."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from credo.cypher import Query
from credo.schema.api_keys import Principal
from credo.schema.errors import Forbidden, InvalidInput
from credo.services.episodic.rules import due, workflow_of
from credo.services.policy import rules as policy_rules
from credo.services.policy.plan import DEFAULT_VERSION

NOW = datetime.fromisoformat("2025-06-01T12:00:00+00:00")
H, D = timedelta(hours=1), timedelta(days=1)

# every string property of the tenant's nodes but the forget's own probe (it holds the content until purge, sealed
# in crypto-erasure mode) holding the word
_HOLDING = Query("raw", "MATCH (n {tenant: $tenant}) WHERE NOT n:ForgetProbe "
                        "UNWIND [k IN keys(n) WHERE n[k] IS :: STRING AND toLower(n[k]) CONTAINS $word] AS k "
                        "RETURN labels(n)[0] + '.' + k AS place", frozenset({"tenant", "word"}))


def _episode(store, word: str, valid_from, workflow: str | None = None):
    return store.add_fact("support desk", "handled", word, kind="episodic", valid_from=valid_from,
                          statement=f"the support desk handled {word}",
                          scope={"workflow": workflow} if workflow else None)


def test_only_the_episodes_past_their_workflows_ttl_roll_off_and_no_residue_is_left(store, clock):
    # given a month of episodes of three workflows, one undated (its age runs from when the store first knew it)
    clock.at(NOW - 31 * D)
    undated = _episode(store, "ticketzebra", None)
    clock.at(NOW - 2 * H)
    old_chat = _episode(store, "chatquokka", NOW - 25 * H, "chat")
    new_chat = _episode(store, "chatokapi", NOW - H, "chat")
    old_incident = _episode(store, "incidentnarwhal", NOW - 40 * D, "incident")
    old_default = _episode(store, "defaultaxolotl", NOW - 40 * D)
    rule = store.add_fact("support desk", "answers_within", "4 hours")  # semantic: never rolls off
    clock.at(NOW)
    # when the roll-off runs
    done = store.roll_off()
    # then exactly the expired ones were forgotten, each verified complete by its residue report
    expired = {undated.fact_id, old_chat.fact_id, old_default.fact_id}
    assert {r.target_id for r in done.forgotten} == expired and done.complete
    assert done.ttls == {"default": 720.0, "chat": 24.0, "incident": 2160.0}
    for fact_id in expired:
        report = store.verify_forgotten(fact_id)
        assert report.complete and report.residue == [] and report.tombstone is not None
    # and a raw scan of the tenant finds none of their words, while the kept ones are intact
    for word in ("ticketzebra", "chatquokka", "defaultaxolotl"):
        assert store._db.query(_HOLDING, tenant=store.tenant, word=word) == [], word
    kept = store.timeline(entity="support desk")
    assert [f.fact_id for f in kept] == [old_incident.fact_id, new_chat.fact_id]
    assert store.facts(subject="support desk", predicate="answers_within")[0].fact_id == rule.fact_id
    # and each went through the forget machinery: its content-free ledger event names the roll-off it acted for
    events = {e.ids[0]: e for e in store.audit(operation="forget").items}
    assert set(events) == expired
    assert {e.on_behalf_of for e in events.values()} == {"episodic roll-off"}
    # and rolling off again forgets nothing more
    assert store.roll_off().forgotten == []


def test_roll_off_at_a_later_now_reaches_the_episodes_that_aged_since(store, clock):
    clock.at(NOW)
    chat = _episode(store, "laterchat", NOW - H, "chat")
    assert store.roll_off().forgotten == []
    clock.at(NOW + 23 * H)
    done = store.roll_off()  # 24 h old: exactly its TTL
    assert [r.target_id for r in done.forgotten] == [chat.fact_id]


def test_a_now_later_than_the_stores_clock_is_refused_and_forgets_nothing(store, clock):
    # given a chat episode an hour old: its TTL (24 h) is 23 hours away
    clock.at(NOW)
    chat = _episode(store, "futurechat", NOW - H, "chat")
    # when a caller claims it is already tomorrow, then the roll-off is refused naming `now`
    with pytest.raises(InvalidInput) as refused:
        store.roll_off(now=NOW + 23 * H)
    assert refused.value.field == "now" and "store's clock" in refused.value.rule
    # and nothing was forgotten before its TTL
    assert [f.fact_id for f in store.timeline(entity="support desk")] == [chat.fact_id]
    assert store.audit(operation="forget").items == []
    # while a now in the past only reaches less (nothing had aged then)
    assert store.roll_off(now=NOW - D).forgotten == []


def test_maintain_rolls_off_expired_episodes_too(store, clock):
    clock.at(NOW)
    chat = _episode(store, "maintainchat", NOW - 2 * D, "chat")
    report = store.maintain()
    assert [r.target_id for r in report.rolled_off] == [chat.fact_id] and report.rolled_off[0].complete


def test_episodes_are_append_only_two_identical_ones_stay_two_facts(store, clock):
    clock.at(NOW)
    one = _episode(store, "the same call", NOW - H, "chat")
    two = _episode(store, "the same call", NOW - H, "chat")
    other = store.add_fact("support desk", "handled", "another call", kind="episodic", valid_from=NOW - H)
    assert len({one.fact_id, two.fact_id, other.fact_id}) == 3
    assert [f.state for f in (one, two, other)] == ["active", "active", "active"]  # no conflict on a single slot
    assert not any(f.disputed for f in store.timeline(entity="support desk"))
    assert store.conflicts() == []


def test_roll_off_needs_the_forget_scope(store):
    reader = store.for_principal(Principal(tenant=store.tenant, scopes=frozenset({"read", "write"})))
    with pytest.raises(Forbidden):
        reader.roll_off()


@pytest.mark.parametrize(("scope", "age", "expected"), [
    ({"workflow": "chat"}, 24 * H, True),            # an age equal to the TTL is past it
    ({"workflow": "chat"}, 24 * H - timedelta(seconds=1), False),
    ({"workflow": "incident"}, 89 * D, False),
    ({"workflow": "incident"}, 90 * D, True),
    ({}, 30 * D, True),                              # no workflow: the default's 30 days
    ({"workflow": "unheard of"}, 29 * D, False),     # a workflow not in the table keeps the default's TTL
])
def test_an_episodes_ttl_is_its_workflows(scope, age, expected):
    ttl = policy_rules.ttl(DEFAULT_VERSION, workflow_of(scope))  # the defaults of a tenant that set no policy
    assert due(NOW - age, NOW, ttl, NOW) is expected
    assert due(None, NOW - age, ttl, NOW) is expected  # undated: measured from its first known time


def test_an_expired_episode_rolls_off_complete_while_its_kept_twin_in_the_same_words_stays(store, clock):
    # given the same words said by two episodes, a day apart: the older past the chat TTL
    clock.at(NOW)
    older = _episode(store, "the daily standup", NOW - 30 * H, "chat")
    newer = _episode(store, "the daily standup", NOW - 6 * H, "chat")
    # when the roll-off runs, only the older goes, and its forget is complete: the twin is an event of its own,
    # listed as left by design, and keeps its words
    [done] = store.roll_off().forgotten
    assert done.target_id == older.fact_id and done.report.complete
    report = store.verify_forgotten(older.fact_id)
    assert report.complete and newer.version_id in {k.ref for k in report.left_by_design}
    [kept] = store.timeline(entity="support desk")
    assert (kept.fact_id, kept.statement) == (newer.fact_id, "the support desk handled the daily standup")


def test_the_tenants_write_policy_sets_the_ttl_of_each_workflow(store, clock):
    # given a tenant whose policy keeps chat episodes one hour (and anything else a year)
    clock.at(NOW - 2 * H)
    chat = _episode(store, "ticketpolicy", NOW - 2 * H, "chat")
    other = _episode(store, "ticketkept", NOW - 2 * H, "standup")
    store.set_write_policy({"episodic": {"ttl": {"default": "P365D", "chat": "PT1H"}}})
    # when the roll-off runs two hours later, the chat episode is past the tenant's TTL, the other is not
    clock.at(NOW)
    rolled = store.roll_off()
    assert [r.target_id for r in rolled.forgotten] == [chat.fact_id] and rolled.forgotten[0].report.complete
    assert [e.fact_id for e in store.timeline(entity="support desk")] == [other.fact_id]
