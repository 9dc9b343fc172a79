"""The pure rules of the context package: placement of a version in its part, and the budgeted rendering."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from credo.schema.context_package import ContextItem, ContextPackage
from credo.schema.facts import EndKind, Fact, ObjectValue
from credo.services.recall.context_rules import Link, place, render, tokens

T = datetime(2024, 6, 1, tzinfo=timezone.utc)
JAN = datetime(2024, 1, 1, tzinfo=timezone.utc)


def fact(**changes) -> Fact:
    base = dict(tenant="t", fact_id="f_1", version_id="v_1", subject="Acme", subject_id="e_1", predicate="owned_by",
                object=ObjectValue(type="entity", value="Alice", entity_id="e_2"), object_name="Alice",
                statement="Alice owns Acme", known_from=JAN, valid_from=JAN)
    return Fact(**(base | changes))


BOB = Link("succession", T, "Bob owns Acme")


@pytest.mark.parametrize("changes, kwargs, part, detail", [
    ({}, {}, "current", None),
    ({"state": "reinforced"}, {}, "current", None),
    ({"valid_to": T}, {"successor": BOB}, "historical", "succession"),          # ended exactly at the point
    ({"valid_to": datetime(2024, 7, 1, tzinfo=timezone.utc)}, {}, "current", None),  # ends after the point
    ({"valid_to": T, "bounded_by": "v_9"}, {}, "historical", "bounded"),
    ({"valid_to": T}, {"predecessor_end": ("end", "ended at 2024-06-01")}, "historical", "end"),
    ({"valid_to": T}, {}, "historical", "end"),
    ({"state": "deprecated", "lapse_reason": "no longer applies because v1 is gone"}, {}, "historical", "lapsed"),
    ({"state": "deprecated"}, {}, "historical", "deprecated"),
    ({"known_to": T, "ended_by": EndKind.CORRECTION}, {"successor": Link("correction", None, "Bob owns Acme")},
     "historical", "correction"),
    ({"known_to": T, "ended_by": EndKind.RETRACTION, "end_reason": "never true"}, {}, "historical", "retraction"),
    ({"known_to": T, "ended_by": EndKind.STATE_CHANGE}, {}, None, None),   # a restated copy, not history
    ({"state": "stale", "stale_cause": "premise f_0 retracted"}, {}, "open", "stale"),
    ({"state": "conflicted"}, {}, "open", "conflict"),
    ({"state": "candidate"}, {}, "open", "candidate"),
    ({"state": "quarantined"}, {}, "open", "quarantined"),
    ({"epistemic": "hypothesis"}, {}, "open", "hypothesis"),
    ({"epistemic": "hypothesis", "state": "reinforced"}, {}, "open", "hypothesis"),
    ({"valid_from": None}, {}, "open", "undated"),
    ({"valid_from": None, "valid_to": T}, {}, "historical", "end"),          # undated but ended by the point
    ({}, {"supported": False}, "open", "unsupported"),
    ({"valid_from": datetime(2024, 9, 1, tzinfo=timezone.utc)}, {}, None, None),  # not valid yet
    ({"state": "rejected"}, {}, None, None),
    ({"state": "forgotten"}, {}, None, None),
])
def test_each_version_goes_to_one_part_and_says_why(changes, kwargs, part, detail):
    placed = place(fact(**changes), valid_at=T, **kwargs)
    if part is None:
        assert placed is None
        return
    assert placed.part == part
    if part == "historical":
        assert placed.end_kind == detail and placed.reason
    if part == "open":
        assert placed.open_kind == detail and placed.cause and placed.unknown


def test_a_succession_names_the_superseding_value():
    placed = place(fact(valid_to=T), valid_at=T, successor=BOB)
    assert placed.superseded_by == "Bob owns Acme" and placed.ended_at == T and "Bob owns Acme" in placed.reason


@pytest.mark.parametrize("text, expected", [("", 0), ("a", 1), ("abcd", 1), ("abcde", 2), ("x" * 400, 100)])
def test_tokens_are_four_characters_each_rounded_up(text, expected):
    assert tokens(text) == expected


def item(part: str, n: int) -> ContextItem:
    f = fact(version_id=f"v_{part}_{n}", statement=f"{part} statement number {n:03d} " + "x" * 40)
    extra = {"end_kind": "succession", "reason": "succeeded"} if part == "historical" else (
        {"open_kind": "stale", "cause": "premise changed", "unknown": "whether it holds"} if part == "open" else {})
    return ContextItem(part=part, statement=f.statement, fact=f, evidence="stated", epistemic="confirmed", **extra)


def package(c: int, h: int, o: int) -> ContextPackage:
    return ContextPackage(query="Acme", valid_at=T, current=[item("current", i) for i in range(c)],
                          historical=[item("historical", i) for i in range(h)], open=[item("open", i) for i in range(o)])


@pytest.mark.parametrize("sizes, budget", [((0, 0, 0), None), ((0, 0, 0), 64), ((3, 2, 1), None), ((3, 2, 1), 10_000),
                                           ((20, 5, 5), 200), ((20, 5, 5), 64), ((1, 40, 0), 300), ((0, 0, 30), 150)])
def test_the_rendering_fits_the_budget_and_counts_what_it_left_out(sizes, budget):
    pkg = package(*sizes)
    text, count, truncated, omitted = render(pkg, budget)
    assert count == tokens(text)
    if budget is not None:
        assert count <= budget
    shown = {part: sum(f"{part} statement number" in line for line in text.splitlines())
             for part in ("current", "historical", "open")}
    assert {p: shown[p] + omitted.get(p, 0) for p in shown} == dict(zip(("current", "historical", "open"), sizes))
    assert truncated == bool(omitted) and (("[truncated to fit" in text) == truncated)
    # current first: no later part is shown while an earlier one was cut
    if omitted.get("current"):
        assert shown["historical"] == shown["open"] == 0
