"""Pure truth-maintenance rules: well-founded support, cascade selection, trace checks."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from credo.schema.cascade import TraceItem
from credo.services.truth.rules import Frontier, reach, select_stale, supported, trace_breaks


def J(*groups: str) -> list[frozenset[str]]:
    return [frozenset(g.split()) for g in groups]


@pytest.mark.parametrize(
    ("name", "justifications", "outside", "expected"),
    [
        ("single premise believed", {"f": J("a")}, {"a"}, {"f"}),
        ("single premise gone", {"f": J("a")}, set(), set()),
        ("AND needs every premise", {"f": J("a b")}, {"a"}, set()),
        ("OR: the other justification holds", {"g": J("a e", "d e")}, {"d", "e"}, {"g"}),
        ("OR: neither holds", {"g": J("a e", "d e")}, {"e"}, set()),
        ("two-cycle without outside support", {"c": J("d"), "d": J("c")}, set(), set()),
        ("two-cycle with an outside anchor", {"c": J("d", "x"), "d": J("c")}, {"x"}, {"c", "d"}),
        ("self-loop gives no support", {"c": J("c")}, set(), set()),
        ("three-cycle, anchor gone", {"a": J("c", "x"), "b": J("a"), "c": J("b")}, set(), set()),
        ("chain carries support", {"b": J("a"), "c": J("b"), "d": J("c")}, {"a"}, {"b", "c", "d"}),
        ("diamond with one side lost", {"b": J("a"), "c": J("x"), "d": J("b c")}, {"a"}, {"b"}),
        ("empty region", {}, {"a"}, set()),
    ],
)
def test_support_is_the_least_fixpoint_of_the_jtms_rule(name, justifications, outside, expected):
    assert supported(justifications, believed_outside=outside, served=set(justifications)) == expected, name


@pytest.mark.parametrize(
    ("name", "justifications", "outside", "revised", "expected"),
    [
        ("revised outside premise supports nothing", {"f": J("a")}, {"a"}, {"a"}, set()),
        ("the other justification still holds", {"f": J("a", "b")}, {"a", "b"}, {"a"}, {"f"}),
        ("a revised node in the region keeps its own support", {"a": J("x"), "f": J("a")}, {"x"}, {"a"}, {"a"}),
        ("nothing revised", {"a": J("x"), "f": J("a")}, {"x"}, set(), {"a", "f"}),
    ],
)
def test_a_revised_premise_no_longer_supports_what_rested_on_its_old_content(
        name, justifications, outside, revised, expected):
    assert supported(justifications, believed_outside=outside, served=set(justifications),
                     revised=revised) == expected, name


def test_a_node_that_is_not_served_supports_nothing():
    assert supported({"b": J("a"), "c": J("b")}, believed_outside={"a"}, served={"c"}) == set()


def test_chain_of_depth_six_flags_every_link_once_in_depth_order():
    chain = {f"f{i}": J(f"f{i - 1}" if i > 1 else "p") for i in range(1, 7)}
    losses = select_stale(changed={"p"}, justifications=chain, believed_outside=set(), served=set(chain))
    assert [(l.fact_id, l.depth) for l in losses] == [(f"f{i}", i) for i in range(1, 7)]
    assert losses[-1].path == ("p", "f1", "f2", "f3", "f4", "f5", "f6")


def test_diamond_is_flagged_once_with_its_shortest_path():
    graph = {"a": J("p"), "b": J("p"), "b2": J("b"), "d": J("a b2")}
    losses = select_stale(changed={"p"}, justifications=graph, believed_outside=set(), served=set(graph))
    assert [l.fact_id for l in losses].count("d") == 1
    assert next(l for l in losses if l.fact_id == "d").path == ("p", "a", "d")


def test_alternative_support_keeps_a_dependent_out_of_the_selection():
    graph = {"f": J("a b"), "g": J("a e", "d e")}
    losses = select_stale(changed={"a"}, justifications=graph, believed_outside={"b", "d", "e"}, served={"f", "g"})
    assert [l.fact_id for l in losses] == ["f"]


@dataclass(frozen=True)
class V:
    """A current version as the walk query returns it: ids, state and justification -> premise fact ids."""

    fact_id: str
    version_id: str
    state: str
    justifications: dict[str, frozenset[str]]


def v(fact: str, *groups: str, state: str = "active", version: str | None = None) -> V:
    return V(fact, version or f"{fact}1", state, {f"j{i}": frozenset(g.split()) for i, g in enumerate(groups)})


WALKS = [
    ("empty input", set(), [], {}, set()),
    ("nothing depends on the change", {"p"}, [], {}, {"p"}),
    ("chain", {"p"}, [v("a", "p"), v("b", "a")], {"a": ["a1"], "b": ["b1"]}, {"p", "a", "b"}),
    ("two-cycle terminates", {"p"}, [v("a", "p", "b"), v("b", "a")], {"a": ["a1"], "b": ["b1"]},
     {"p", "a", "b"}),
    ("self-loop terminates", {"p"}, [v("a", "p", "a")], {"a": ["a1"]}, {"p", "a"}),
    ("cycle through the changed fact", {"p"}, [v("a", "p"), v("p", "a", version="p2")],
     {"a": ["a1"], "p": ["p2"]}, {"p", "a"}),
    ("diamond meets its join once", {"p"}, [v("a", "p"), v("b", "p"), v("d", "a b")],
     {"a": ["a1"], "b": ["b1"], "d": ["d1"]}, {"p", "a", "b", "d"}),
    ("OR-justification: met through one, the other's premises are not walked", {"a"}, [v("g", "a e", "d e")],
     {"g": ["g1"]}, {"a", "g"}),
    ("a stale dependent is met but not walked through", {"p"}, [v("a", "p", state="stale"), v("b", "a")],
     {"a": ["a1"]}, {"p"}),
    ("a fact with a served and a stale version is walked", {"p"},
     [v("a", "p", state="stale"), v("a", "p", version="a2"), v("b", "a")],
     {"a": ["a1", "a2"], "b": ["b1"]}, {"p", "a", "b"}),
    ("versions not reachable from the change are left out", {"p"}, [v("a", "p"), v("y", "x")],
     {"a": ["a1"]}, {"p", "a"}),
    ("a version given twice is met once", {"p"}, [v("a", "p"), v("a", "p")], {"a": ["a1"]}, {"p", "a"}),
]


@pytest.mark.parametrize(("name", "changed", "versions", "region", "walked"), WALKS)
def test_the_walk_over_ids_meets_every_dependent_once_and_terminates(name, changed, versions, region, walked):
    met, through = reach(changed, versions)
    assert {fid: [x.version_id for x in found] for fid, found in met.items()} == region, name
    assert through == walked, name


@pytest.mark.parametrize("batches", ["one batch", "one version per batch, last first"])
@pytest.mark.parametrize(("name", "changed", "versions", "region", "walked"), WALKS)
def test_the_levelwise_walk_meets_what_the_walk_over_ids_meets_in_any_batching(name, changed, versions, region,
                                                                               walked, batches):
    frontier = Frontier(changed)
    for batch in [versions] if batches == "one batch" else [[x] for x in reversed(versions)]:
        frontier.add(batch)
    assert {fid: sorted(x.version_id for x in found) for fid, found in frontier.met.items()} == region, name
    assert frontier.walked == walked, name


@pytest.mark.parametrize(
    ("current", "expected"),
    [
        ({("fact", "f1"): "h1", ("summary", "s1"): "h2"}, []),
        ({("fact", "f1"): None, ("summary", "s1"): "h2"}, ["fact f1 is no longer served as current"]),
        ({("fact", "f1"): "other", ("summary", "s1"): "h2"}, ["fact f1 changed (was version v1)"]),
        ({}, ["fact f1 is no longer served as current", "summary s1 is no longer served as current"]),
    ],
)
def test_a_trace_holds_only_while_every_input_is_served_with_its_recorded_hash(current, expected):
    trace = [TraceItem(kind="fact", ref_id="f1", version_id="v1", hash="h1"),
             TraceItem(kind="summary", ref_id="s1", version_id="sv1", hash="h2")]
    assert trace_breaks(trace, current) == expected


def test_revision_names_what_a_reader_sees_changed_and_ignores_valid_time_and_confidence():
    from datetime import datetime, timezone

    from credo.schema.facts import Fact, ObjectValue
    from credo.services.truth.rules import revision

    at = datetime(2025, 1, 1, tzinfo=timezone.utc)
    old = Fact(tenant="t", fact_id="f_1", version_id="v_1", subject="payments", subject_id="e_1",
               predicate="signing_key", object=ObjectValue(type="string", value="K1"), object_name="K1",
               statement="payments signs with K1", known_from=at)
    assert revision(old, old.model_copy(update={"valid_to": at, "confidence": 0.2})) is None
    assert revision(old, old.model_copy(update={"statement": "payments signs with K2"})) == (
        "payments signs with K1", "payments signs with K2")
    other = ObjectValue(type="string", value="K2")
    assert revision(old, old.model_copy(update={"object": other, "object_name": "K2"})) == ("K1", "K2")
    assert revision(old, old.model_copy(update={"scope": {"env": "staging"}})) == ("{}", "{'env': 'staging'}")


def _v(start, end, *groups, state="active"):
    from types import SimpleNamespace

    from credo.schema.time import parse_instant

    return SimpleNamespace(valid_from=start and parse_instant(start, "t"), valid_to=end and parse_instant(end, "t"),
                           state=state, known_to=None,
                           justifications={f"j{i}": frozenset(g.split()) for i, g in enumerate(groups)})


@pytest.mark.parametrize(
    ("name", "views", "expected"),
    [
        ("premise valid then", {"p": [_v("2025-01-01", "2025-06-01")], "r": [_v("2025-01-01", None, "p")]}, {"p", "r"}),
        ("premise ended exactly then (half-open)", {"p": [_v("2024-01-01", "2025-03-01")],
                                                   "r": [_v("2025-01-01", None, "p")]}, set()),
        ("premise starts later", {"p": [_v("2025-04-01", None)], "r": [_v("2025-01-01", None, "p")]}, set()),
        ("unknown start counts as valid", {"p": [_v(None, None)], "r": [_v("2025-01-01", None, "p")]}, {"p", "r"}),
        ("premise not served", {"p": [_v("2024-01-01", None, state="stale")], "r": [_v("2024-01-01", None, "p")]},
         set()),
        ("the other justification holds", {"p": [_v("2024-01-01", "2025-02-01")], "q": [_v("2024-01-01", None)],
                                           "r": [_v("2025-01-01", None, "p", "q")]}, {"q", "r"}),
        ("ended premise two levels down", {"p": [_v("2024-01-01", "2025-02-01")], "m": [_v("2024-01-01", None, "p")],
                                           "r": [_v("2025-01-01", None, "m")]}, set()),
        ("a cycle gives none", {"a": [_v("2024-01-01", None, "b")], "b": [_v("2024-01-01", None, "a")]}, set()),
        ("premise never loaded", {"r": [_v("2025-01-01", None, "p")]}, set()),
    ],
)
def test_support_at_a_valid_time_needs_premises_valid_then(name, views, expected):
    from credo.schema.time import parse_instant
    from credo.services.truth.rules import supported_at

    assert supported_at(views, parse_instant("2025-03-01", "t")) == expected, name
