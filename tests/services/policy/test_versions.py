"""The write policy's versions on a real Neo4j (DESIGN §9, issue 27 item 1): every stored version newest first, the
defaults last, each with its known interval, the principal who set it (as the ledger records it), its plan per kind
and what it changed; keyset pages by `after` that hold while a new version is set; only the tenant's own versions; a
read-scoped key lists them; an `after` naming no version of the tenant is refused naming the field."""

from __future__ import annotations

import pytest

from credo.schema.api_keys import Principal
from credo.schema.errors import Forbidden, InvalidInput
from credo.schema.policy import PolicyChange

FIRST = {"semantic": {"visible": "logged"}}
SECOND = {"semantic": {"visible": "logged"}, "episodic": {"ttl": {"default": "P7D", "chat": "PT1H"}}}
THIRD = {"episodic": {"ttl": {"default": "P7D", "chat": "PT1H"}}, "procedural": {"earns": "never"}}


def acting(store, actor: str, scopes: tuple[str, ...] = ("read", "admin")):
    """The store's tenant as another principal (its actor, its scopes), on the same clock."""
    return store.for_principal(Principal(tenant=store.tenant, actor=actor, scopes=frozenset(scopes)))


@pytest.fixture
def three(store, clock):
    """Three versions set by three principals, a day apart; answers them oldest first."""
    made = []
    for day, actor, policy in (("2025-02-01", "key:alice", FIRST), ("2025-02-02", "key:bob", SECOND),
                               ("2025-02-03", "key:carol", THIRD)):
        clock.at(f"{day}T09:00:00Z")
        made.append(acting(store, actor).set_write_policy(policy))
    clock.at("2025-02-04T09:00:00Z")
    return made


def test_three_overrides_list_as_three_versions_newest_first_then_the_defaults(store, three):
    first, second, third = three
    listed = store.write_policy_versions()
    # then the three versions come newest first, the defaults last, and the listing ends there
    assert [v.policy_id for v in listed.items] == [third.policy_id, second.policy_id, first.policy_id, "default"]
    assert listed.next_after is None
    # each known until the next was set; the newest still in force; the defaults known until the first
    assert [(v.known_from, v.known_to) for v in listed.items] == [
        (third.known_from, None), (second.known_from, third.known_from), (first.known_from, second.known_from),
        (None, first.known_from)]
    # set by the principal whose write stored it, as the ledger records the act; nobody set the defaults
    assert [v.set_by for v in listed.items] == ["key:carol", "key:bob", "key:alice", None]
    ledger = {e.subject_id: e.actor for e in store.audit(operation="set_write_policy").items}
    assert ledger == {v.policy_id: v.set_by for v in listed.items[:3]}
    # each holds its document and the plan it gives each kind (None: no slot)
    newest, middle, oldest, default = listed.items
    assert newest.policy.model_dump(exclude_none=True) == THIRD
    assert newest.plans["procedural"] is None and newest.plans["episodic"].ttl == "P7D"
    assert newest.plans["semantic"].visible == "surfaced" and middle.plans["semantic"].visible == "logged"
    assert {p.policy for p in middle.plans.values()} == {middle.policy_id}
    assert default.plans["episodic"].ttl == "P30D" and default.plans["semantic"].policy == "default"
    # and what it changed from the version before it (the oldest from the defaults)
    assert oldest.changes == [PolicyChange(kind="semantic", field="visible", before=None, after="logged")]
    assert middle.changes == [PolicyChange(kind="episodic", field="ttl", before=None,
                                           after={"default": "P7D", "chat": "PT1H"})]
    assert newest.changes == [PolicyChange(kind="semantic", field="visible", before="logged", after=None),
                              PolicyChange(kind="procedural", field="earns", before=None, after="never")]
    assert default.changes == []


def test_a_tenant_that_never_set_a_policy_lists_only_the_defaults_in_force(store):
    listed = store.write_policy_versions()
    assert [(v.policy_id, v.known_from, v.known_to, v.set_by) for v in listed.items] == [("default", None, None, None)]
    assert listed.next_after is None


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_pages_by_after_join_into_the_whole_list_and_hold_while_a_new_version_is_set(store, clock, three, limit):
    whole = [v.policy_id for v in store.write_policy_versions().items]
    # given a first page
    page = store.write_policy_versions(limit=limit)
    seen = [v.policy_id for v in page.items]
    assert len(page.items) == limit and page.next_after == seen[-1]
    # when a new version is set between two pages
    clock.at("2025-02-05T09:00:00Z")
    newer = store.set_write_policy({"relational": {"visible": "silent"}})
    # then the pages after it still follow on from where the first ended: nothing twice, nothing skipped
    while page.next_after is not None:
        page = store.write_policy_versions(after=page.next_after, limit=limit)
        assert len(page.items) <= limit
        seen += [v.policy_id for v in page.items]
    assert seen == whole
    # and a fresh listing starts from the new one
    assert store.write_policy_versions(limit=1).items[0].policy_id == newer.policy_id


def test_a_page_that_ends_on_a_version_still_says_what_it_changed_from_the_next_one(store, three):
    first, second, _ = three
    page = store.write_policy_versions(after=three[2].policy_id, limit=1)
    # the one more row the page reads is the version before its last one
    assert [v.policy_id for v in page.items] == [second.policy_id] and page.next_after == second.policy_id
    assert [(c.kind, c.field) for c in page.items[0].changes] == [("episodic", "ttl")]
    # after the oldest stored version come the defaults, known until it; after the defaults nothing
    tail = store.write_policy_versions(after=first.policy_id)
    assert [(v.policy_id, v.known_to) for v in tail.items] == [("default", first.known_from)]
    assert store.write_policy_versions(after="default").items == []


def test_another_tenants_versions_are_never_listed_nor_a_place_to_start_after(store, clock, three):
    other = store.for_tenant(f"{store.tenant}_other")
    theirs = other.set_write_policy({"semantic": {"visible": "silent"}})
    mine = {v.policy_id for v in store.write_policy_versions().items}
    assert theirs.policy_id not in mine and mine == {v.policy_id for v in three} | {"default"}
    assert [v.policy_id for v in other.write_policy_versions().items] == [theirs.policy_id, "default"]
    with pytest.raises(InvalidInput) as refused:
        store.write_policy_versions(after=theirs.policy_id)
    assert refused.value.field == "after"


def test_a_read_scoped_key_may_list_the_versions_but_not_set_one(store, three):
    reader = acting(store, "key:reader", scopes=("read",))
    assert [v.policy_id for v in reader.write_policy_versions().items][:3] == [v.policy_id for v in three[::-1]]
    with pytest.raises(Forbidden):
        reader.set_write_policy(FIRST)


@pytest.mark.parametrize("after", ["wp_nothing", "v_1234", "x"])
def test_an_after_naming_no_version_is_refused_naming_the_field(store, three, after):
    with pytest.raises(InvalidInput) as refused:
        store.write_policy_versions(after=after)
    assert refused.value.field == "after" and after in str(refused.value)


@pytest.mark.parametrize("limit", [0, 1_001])
def test_a_limit_out_of_range_is_refused_naming_the_field(store, limit):
    with pytest.raises(InvalidInput) as refused:
        store.write_policy_versions(limit=limit)
    assert refused.value.field == "limit"
