"""Pure truth-maintenance rules: well-founded support, cascade selection, trace checks."""

from __future__ import annotations

import pytest

from credo.schema.cascade import TraceItem
from credo.services.tms_rules import select_stale, supported, trace_breaks


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
