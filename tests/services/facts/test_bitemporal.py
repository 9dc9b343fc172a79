"""Issue 3 acceptance timelines: every claim is a set of rectangles in valid time x known time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.errors import ConflictError, InvalidInput, NotFound

UTC = timezone.utc
EPS = timedelta(microseconds=1)


def values(store, subject, predicate, **at):
    return [f.value for f in store.facts(subject, predicate, **at)]


def test_range_write_reinstates_the_earlier_value_outside_the_range(store, clock):
    # given 25 from 2019-11-25, succeeded by 28 from 11-28
    clock.at("2019-12-01")
    first = store.add_fact("sensor", "reading", 25, valid_from="2019-11-25")
    store.succeed_fact(first.fact_id, object=28, at="2019-11-28")
    before_range = clock.at("2019-12-05")
    # when 26 is written for [11-26, 11-29) only
    clock.at("2019-12-10")
    store.write_range("sensor", "reading", 26, valid_from="2019-11-26", valid_to="2019-11-29")
    # then, as of now
    assert values(store, "sensor", "reading", valid_at="2019-11-25") == [25]
    assert values(store, "sensor", "reading", valid_at="2019-11-26") == [26]
    assert values(store, "sensor", "reading", valid_at="2019-11-28") == [26]
    assert values(store, "sensor", "reading", valid_at="2019-11-29") == [28]
    # and as of the known time before the range write
    assert values(store, "sensor", "reading", valid_at="2019-11-28", known_at=before_range) == [28]


def test_correcting_a_past_version_keeps_the_old_belief_readable(store, clock):
    t0 = clock.at("2025-03-01")
    v1 = store.add_fact("doc", "version", "v1", valid_from="2025-02-01")
    v2 = store.succeed_fact(v1.fact_id, object="v2", at="2025-02-02")
    store.succeed_fact(v2.fact_id, object="v3", at="2025-02-03")
    before_correction = clock.at("2025-03-02")
    clock.at("2025-03-03")
    store.correct_fact(v2.fact_id, object="v2-prime")
    assert [f.value for f in store.chain("doc", "version")] == ["v1", "v2-prime", "v3"]
    assert [f.value for f in store.chain("doc", "version", known_at=before_correction)] == ["v1", "v2", "v3"]
    assert values(store, "doc", "version", valid_at="2025-02-02T12:00:00+00:00", known_at=before_correction) == ["v2"]
    assert store.chain("doc", "version", known_at=t0 - timedelta(days=1)) == []


def test_late_retroactive_change_lands_by_valid_time(store, clock):
    clock.at("2025-01-25")
    salary = store.add_fact("Carol", "salary", 6000, valid_from="2025-01-25")
    clock.at("2025-03-15")
    store.succeed_fact(salary.fact_id, object=6500, at="2025-02-15")
    assert values(store, "Carol", "salary", valid_at="2025-02-25", known_at="2025-02-25") == [6000]
    assert values(store, "Carol", "salary", valid_at="2025-02-25", known_at="2025-03-25") == [6500]
    assert values(store, "Carol", "salary", valid_at="2025-01-25", known_at="2025-03-25") == [6000]


def test_future_dated_succession_is_three_rectangles(store, clock):
    clock.at("2019-11-18")
    home = store.add_fact("Dana", "address", "A street", valid_from="2019-11-18")
    clock.at("2025-08-13")
    successor = store.succeed_fact(home.fact_id, object="B street", at="2025-09-01")
    on_0820 = store.facts("Dana", "address", valid_at="2025-08-20")
    assert [f.value for f in on_0820] == ["A street"]
    assert on_0820[0].valid_to == datetime(2025, 9, 1, tzinfo=UTC)
    assert values(store, "Dana", "address", valid_at="2025-12-01") == ["B street"]
    rectangles = store.history(home.fact_id) + store.history(successor.fact_id)
    assert len(rectangles) == 3
    shapes = sorted((f.value, f.valid_to is None, f.known_to is None) for f in rectangles)
    assert shapes == [("A street", False, True), ("A street", True, False), ("B street", True, True)]


def test_half_open_boundaries_on_both_axes(store, clock):
    clock.at("2025-01-10")
    t1, t2 = datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 2, 1, tzinfo=UTC)
    fact = store.add_fact("Eve", "role", "intern", valid_from=t1, valid_to=t2)
    assert values(store, "Eve", "role", valid_at=t1) == ["intern"]
    assert values(store, "Eve", "role", valid_at=t2 - EPS) == ["intern"]
    assert values(store, "Eve", "role", valid_at=t2) == []
    clock.at("2025-01-20")
    corrected = store.correct_fact(fact.fact_id, object="trainee")
    k1, k2 = fact.known_from, corrected.known_from
    assert values(store, "Eve", "role", valid_at=t1, known_at=k1) == ["intern"]
    assert values(store, "Eve", "role", valid_at=t1, known_at=k2 - EPS) == ["intern"]
    assert values(store, "Eve", "role", valid_at=t1, known_at=k2) == ["trainee"]
    assert values(store, "Eve", "role", valid_at=t1, known_at=k1 - EPS) == []


def test_reads_at_an_earlier_known_time_never_change(store, clock):
    clock.at("2025-01-01")
    revenue = store.add_fact("Acme", "revenue", 1000, valid_from="2024-01-01", valid_to="2025-01-01")
    earlier = clock.at("2025-01-02")
    snapshot = [f.model_dump() for f in store.facts("Acme", "revenue", valid_at="2024-06-01", known_at=earlier)]
    clock.at("2025-01-03")
    store.correct_fact(revenue.fact_id, object=1200)
    for i in range(5):
        clock.at(f"2025-02-0{i + 1}")
        store.add_fact("Acme", "headcount", 10 + i, valid_from=f"2024-0{i + 1}-01", valid_to=f"2024-0{i + 2}-01")
    again = [f.model_dump() for f in store.facts("Acme", "revenue", valid_at="2024-06-01", known_at=earlier)]
    assert again == snapshot and [row["object"]["value"] for row in again] == ["1000"]
    assert values(store, "Acme", "revenue", valid_at="2024-06-01") == [1200]


def test_evolution_chain_and_default_browser_at_every_boundary(store, clock):
    clock.at("2025-01-01")
    firefox = store.add_fact("Frank", "default_browser", "Firefox", valid_from="2010-01-01")
    chrome = store.succeed_fact(firefox.fact_id, object="Chrome", at="2015-06-01")
    store.succeed_fact(chrome.fact_id, object="Edge", at="2021-03-01")
    chain = store.chain("Frank", "default_browser")
    assert [f.value for f in chain] == ["Firefox", "Chrome", "Edge"]
    assert [f.valid_text() for f in chain] == ["[2010-01-01, 2015-06-01)", "[2015-06-01, 2021-03-01)", "[2021-03-01, …)"]
    for at, expected in [("2010-01-01", "Firefox"), ("2015-05-31", "Firefox"), ("2015-06-01", "Chrome"),
                         ("2021-02-28", "Chrome"), ("2021-03-01", "Edge")]:
        assert values(store, "Frank", "default_browser", valid_at=at) == [expected]
    assert values(store, "Frank", "default_browser", valid_at="2009-12-31") == []


def test_a_conflicting_write_is_kept_not_applied_until_resolved(store, clock):
    clock.at("2025-01-01")
    store.add_fact("Acme account", "owner", "Alice", valid_from="2024-01-01")
    clock.at("2025-02-01")
    bob = store.add_fact("Acme account", "owner", "Bob", valid_from="2024-08-01")
    assert bob.state == "conflicted"
    served = store.facts("Acme account", "owner", valid_at="2024-09-01")
    assert [f.value for f in served] == ["Alice"] and served[0].disputed
    [conflict] = store.conflicts()
    assert conflict.challenger.value == "Bob" and conflict.established.value == "Alice"
    clock.at("2025-02-02")
    store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-08-01")
    assert values(store, "Acme account", "owner", valid_at="2024-07-31") == ["Alice"]
    assert values(store, "Acme account", "owner", valid_at="2024-08-01") == ["Bob"]
    assert store.conflicts() == []
    assert not store.facts("Acme account", "owner", valid_at="2024-07-31")[0].disputed


def test_production_and_staging_values_never_conflict(store, clock):
    store.add_fact("db", "host", "prod-1", valid_from="2024-01-01", scope={"env": "production"})
    staging = store.add_fact("db", "host", "stage-1", valid_from="2024-01-01", scope={"env": "staging"})
    assert staging.state == "active" and store.conflicts() == []
    assert values(store, "db", "host", valid_at="2024-06-01", scope={"env": "staging"}) == ["stage-1"]


def test_arrival_order_is_not_authority(store, clock):
    clock.at("2025-08-05")
    store.add_fact("Gina", "team", "Platform", valid_from="2025-08-01")
    clock.at("2025-09-10")
    june = store.add_fact("Gina", "team", "Search", valid_from="2025-06-01")
    assert june.state == "active"
    assert june.valid_to == datetime(2025, 8, 1, tzinfo=UTC) and june.bounded_by is not None
    assert values(store, "Gina", "team", valid_at="2025-07-01") == ["Search"]
    assert values(store, "Gina", "team", valid_at="2025-08-15") == ["Platform"]
    dated = store.add_fact("Gina", "team", "Ads", valid_from="2025-06-01", valid_to="2025-09-01")
    assert dated.state == "conflicted"
    assert values(store, "Gina", "team", valid_at="2025-08-15") == ["Platform"]


def test_unknown_start_stays_unknown(store, clock):
    clock.at("2025-05-05")
    undated = store.add_fact("Hank", "speaks", "Welsh")
    assert undated.valid_from is None
    # never part of the dated answer at any point (never valid "from the beginning of time") ...
    assert store.facts("Hank", "speaks", valid_at="2025-05-05").dated == []
    assert store.facts("Hank", "speaks", valid_at="1900-01-01").dated == []
    assert values(store, "Hank", "speaks", valid_at="1900-01-01", include_undated=False) == []
    # ... but never dropped either: read apart, marked undated
    listed = store.facts("Hank", "speaks")
    assert [f.value for f in listed.undated] == ["Welsh"] and listed[0].undated
    assert store.history(undated.fact_id)[0].valid_from is None


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"valid_from": "2025-02-01", "valid_to": "2025-01-01"}, "valid_to"),
        ({"valid_from": "2025-01-01", "valid_to": "2025-01-01"}, "valid_to"),
        ({"valid_from": datetime(2025, 1, 1)}, "valid_from"),
        ({"valid_from": "not a date"}, "valid_from"),
        ({"confidence": 1.5}, "confidence"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(store, kwargs, field):
    with pytest.raises(InvalidInput) as err:
        store.add_fact("Ivy", "role", "lead", **kwargs)
    assert err.value.field == field
    assert store.facts("Ivy", "role", include_undated=True, states=["active", "conflicted"]) == []


def test_unknown_fact_id_and_stale_version_are_refused(store, clock):
    with pytest.raises(NotFound):
        store.correct_fact("f_doesnotexist", object="x")
    fact = store.add_fact("Jack", "desk", "D1", valid_from="2025-01-01")
    store.correct_fact(fact.fact_id, object="D2")
    with pytest.raises(ConflictError):
        store.correct_fact(fact.version_id, object="D3")
    assert [f.value for f in store.facts("Jack", "desk", valid_at="2025-02-01")] == ["D2"]


def test_two_concurrent_successions_of_one_version_exactly_one_wins(store, clock):
    from concurrent.futures import ThreadPoolExecutor

    fact = store.add_fact("Kim", "manager", "Lee", valid_from="2024-01-01")

    def succeed(name):
        try:
            return store.succeed_fact(fact.version_id, object=name, at="2025-01-01")
        except ConflictError as exc:
            return exc

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(succeed, ["Mo", "Ned"]))
    wins = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(wins) == 1 and len([o for o in outcomes if isinstance(o, ConflictError)]) == 1
    assert values(store, "Kim", "manager", valid_at="2025-06-01") == [wins[0].value]
