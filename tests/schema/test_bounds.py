"""The command models bound every value at the boundary, so the Store (and through it REST, MCP and the CLI)
refuses it alike: a lone surrogate in any text, integers past their range (2**63, 2**70) or given as booleans,
numbers where a time is expected, text past its family's length, empty scope keys, values nested too deeply. Each
refusal is one InvalidInput naming the field as the caller sent it. The tables come from the models themselves."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from credo.schema.command_base import MAX_DEPTH, build, refusal, sent_path
from credo.schema.errors import InvalidInput
from credo.schema.names import NAME_MAX, TEXT_MAX, check_scope, clean_name, clean_text
from credo.schema.operations import BY_NAME
from credo.schema.sources import MessageIn, MessageRef
from tests.hostile import MESSAGE, SURROGATE, Bad, controls, deep, numbers, shape, surrogates, too_long

# refused by the service the Store calls (the message list, a pointer's position), not by the command itself
_LATER = ("messages", "message")


def _refusal(bad: Bad) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        build(BY_NAME[bad.operation].command, **bad.fields(BY_NAME[bad.operation].command))
    return refused.value


@pytest.mark.parametrize("bad", [b for b in surrogates() if b.field not in _LATER], ids=str)
def test_a_lone_surrogate_in_any_text_field_of_any_command_is_refused_naming_it(bad):
    refused = _refusal(bad)
    assert refused.field == bad.named
    command = BY_NAME[bad.operation].command
    if shape(bad.field, command.model_fields[bad.field]) not in ("literal", "time"):  # those name their choices
        assert "must be valid Unicode text (a lone surrogate" in refused.rule


@pytest.mark.parametrize("bad", [b for b in controls() if b.field not in _LATER], ids=str)
def test_a_control_character_in_any_text_field_of_any_command_is_refused_naming_it(bad):
    refused = _refusal(bad)
    assert refused.field.split(".")[0] == bad.named.split(".")[0]
    if shape(bad.field, BY_NAME[bad.operation].command.model_fields[bad.field]) not in ("literal", "time"):
        assert "control character" in refused.rule


@pytest.mark.parametrize("field, value, kept", [
    ("subject", "Acme\naccount", False), ("predicate", "owned\tby", False), ("sensitivity", "secret\r", False),
    ("statement", "Acme is owned\nby Alice", True), ("statement", "a\ttab", True), ("statement", "bell\x07", False),
    ("statement", "c1\x85control", False), ("subject", "Acme\x7f", False),
])
def test_names_hold_no_control_characters_and_text_only_tabs_and_line_breaks(field, value, kept):
    fact = BY_NAME["add_fact"].command
    given = {"subject": "Acme", "predicate": "owned_by", "object": "Alice", field: value}
    if kept:
        assert getattr(build(fact, **given), field) == value
    else:
        with pytest.raises(InvalidInput) as refused:
            build(fact, **given)
        assert refused.value.field == field and "control character" in refused.value.rule


@pytest.mark.parametrize("bad", [b for b in numbers() if b.field not in _LATER], ids=str)
def test_integers_past_their_range_booleans_for_numbers_and_numbers_for_times_are_refused(bad):
    assert _refusal(bad).field == bad.named


@pytest.mark.parametrize("bad", too_long(), ids=str)
def test_text_past_16_kib_is_refused_in_every_text_field(bad):
    assert _refusal(bad).field == bad.named


def test_the_bounds_are_the_readmes():
    fact = BY_NAME["add_fact"].command
    assert build(fact, subject="s" * NAME_MAX, predicate="p", object="o", statement="x" * TEXT_MAX)
    for field, value in (("subject", "s" * (NAME_MAX + 1)), ("statement", "x" * (TEXT_MAX + 1))):
        with pytest.raises(InvalidInput) as refused:
            build(fact, **{"subject": "s", "predicate": "p", "object": "o", field: value})
        assert refused.value.field == field


@pytest.mark.parametrize("scope, rule", [({"": "x"}, "key ''"), ({"env": "x" * 513}, "at most 512"),
                                         ({f"k{i}": "v" for i in range(65)}, "at most 64")])
def test_a_scope_has_non_empty_keys_short_values_and_few_pairs(scope, rule):
    with pytest.raises(InvalidInput) as refused:
        build(BY_NAME["facts"].command, scope=scope)
    assert refused.value.field.startswith("scope") and rule in refused.value.rule


def test_an_object_nested_past_the_bound_is_refused_and_one_within_it_passes_on():
    facts = BY_NAME["facts"].command
    with pytest.raises(InvalidInput) as refused:
        build(facts, object=deep(MAX_DEPTH + 1))
    assert (refused.value.field, refused.value.rule) == ("object", f"nests deeper than {MAX_DEPTH} levels")
    kept = build(facts, object={"type": "string", "value": "ok"}).object  # a typed literal, read once
    assert (kept.type, kept.value) == ("string", "ok")


@pytest.mark.parametrize("field, value", [("role", SURROGATE), ("origin", SURROGATE), ("author", SURROGATE),
                                          ("text", SURROGATE), ("at", SURROGATE), ("at", 1_700_000_000),
                                          ("at", "2024-05-01"), ("at", True), ("index", 2**63), ("index", 2**70),
                                          ("index", True), ("text", "x" * (TEXT_MAX + 1)),
                                          ("role", "r" * (NAME_MAX + 1))])
def test_a_message_refuses_unencodable_text_numeric_times_and_unbounded_positions(field, value):
    with pytest.raises((ValidationError, InvalidInput)) as refused:
        MessageIn.model_validate({**MESSAGE, field: value})
    named = refused.value.field if isinstance(refused.value, InvalidInput) else refusal(
        refused.value.errors(), {**MESSAGE, field: value}).field
    assert named == field


@pytest.mark.parametrize("pointer", [{"session_id": "s" * 10_000, "index": 0}, {"session_id": "s", "index": 2**70},
                                     {"session_id": "s", "index": 0, "generation": True}])
def test_a_message_pointer_is_bounded(pointer):
    with pytest.raises(ValidationError):
        MessageRef.model_validate(pointer)


@pytest.mark.parametrize("check", [lambda: clean_name(SURROGATE, "subject"), lambda: clean_text(SURROGATE, "quote"),
                                   lambda: check_scope({"": "x"}), lambda: check_scope({"k": SURROGATE})])
def test_the_services_own_checks_refuse_the_same(check):
    with pytest.raises(InvalidInput):
        check()


@pytest.mark.parametrize("loc, given, named", [
    (("states", "list[constrained-str]", 1), {"states": ["a", "b"]}, "states.1"),
    (("states", "constrained-str"), {"states": "a"}, "states"),
    (("rows", 0, "subject"), {"rows": [{"subject": "x"}]}, "rows.0.subject"),
    (("subject",), {}, "subject"),  # a missing field is named though it was not sent
    (("scope", "env"), {"scope": {"env": "x"}}, "scope.env"),
    (("a\ud800",), {"a\ud800": 1}, "a\\ud800"),  # an unknown field is named, escaped
])
def test_a_refusal_names_the_path_the_caller_sent(loc, given, named):
    assert sent_path(loc, given) == named
