"""Instants, precisions and half-open intervals (pure, table-driven)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from credo.schema.errors import InvalidInput
from credo.schema.time import contains, next_tick, overlaps, parse_point, render

UTC = timezone.utc
D = lambda *a: datetime(*a, tzinfo=UTC)  # noqa: E731


@pytest.mark.parametrize(
    "value, instant, precision",
    [
        ("2019", D(2019, 1, 1), "year"),
        ("2019-11", D(2019, 11, 1), "month"),
        ("2019-11-25", D(2019, 11, 25), "day"),
        (date(2019, 11, 25), D(2019, 11, 25), "day"),
        ("2019-11-25T10:00:00+02:00", D(2019, 11, 25, 8), "instant"),
        ("2019-11-25T10:00:00Z", D(2019, 11, 25, 10), "instant"),
        (datetime(2019, 11, 25, 10, tzinfo=timezone(timedelta(hours=-5))), D(2019, 11, 25, 15), "instant"),
    ],
)
def test_time_values_keep_their_precision_and_normalise_to_utc(value, instant, precision):
    point, got = parse_point(value, "valid_from")
    assert point == instant and got == precision and point.tzinfo == UTC


@pytest.mark.parametrize("value", [datetime(2019, 1, 1), "2019-11-25T10:00:00", "2019-13", "soon", 2019, ""])
def test_naive_or_malformed_times_are_refused_naming_the_field(value):
    with pytest.raises(InvalidInput) as err:
        parse_point(value, "valid_from")
    assert err.value.field == "valid_from"


@pytest.mark.parametrize("value", ["2019-11-25T10:00:00", "2019-13", "soon", ""])
def test_a_time_text_parsed_again_gives_the_same_point_and_a_refused_one_is_refused_again_naming_its_field(value):
    # texts are remembered once parsed (a batch's dates repeat): a good one gives the same point, a bad one is never
    # remembered and names the field it came in each time
    assert parse_point("2019-11-25", "valid_from") == parse_point("2019-11-25", "valid_to") == (D(2019, 11, 25), "day")
    for field in ("valid_from", "valid_to"):
        with pytest.raises(InvalidInput) as err:
            parse_point(value, field)
        assert err.value.field == field


@pytest.mark.parametrize(
    "start, end, at, expected",
    [
        (D(2025, 1, 1), D(2025, 2, 1), D(2025, 1, 1), True),
        (D(2025, 1, 1), D(2025, 2, 1), D(2025, 2, 1) - timedelta(microseconds=1), True),
        (D(2025, 1, 1), D(2025, 2, 1), D(2025, 2, 1), False),
        (D(2025, 1, 1), None, D(2999, 1, 1), True),
        (None, None, D(2025, 1, 1), False),
        (None, D(2025, 2, 1), D(2025, 1, 1), False),
    ],
)
def test_half_open_containment_and_unknown_start(start, end, at, expected):
    assert contains(start, end, at) is expected


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ((D(2025, 1, 1), D(2025, 2, 1)), (D(2025, 2, 1), None), False),
        ((D(2025, 1, 1), D(2025, 2, 1)), (D(2025, 1, 31), D(2025, 3, 1)), True),
        ((D(2025, 1, 1), None), (D(2030, 1, 1), None), True),
        ((None, None), (D(2025, 1, 1), D(2025, 1, 2)), True),
        ((D(2025, 1, 1), D(2025, 1, 2)), (D(2025, 1, 2), D(2025, 1, 3)), False),
    ],
)
def test_overlap_of_half_open_intervals(a, b, expected):
    assert overlaps(*a, *b) is expected and overlaps(*b, *a) is expected


def test_known_time_strictly_increases_even_when_the_clock_does_not():
    t = D(2025, 1, 1)
    assert next_tick(None, t) == t
    assert next_tick(t, t) == t + timedelta(microseconds=1)
    assert next_tick(t + timedelta(seconds=1), t) == t + timedelta(seconds=1, microseconds=1)
    assert next_tick(t, t + timedelta(seconds=1)) == t + timedelta(seconds=1)


def test_bounds_render_at_their_own_precision():
    assert render(D(2019, 1, 1), "year") == "2019"
    assert render(D(2019, 11, 1), "month") == "2019-11"
    assert render(None) == "…"


@pytest.mark.parametrize("text", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_an_instant_outside_the_utc_range_is_invalid_input_naming_the_field(text):
    with pytest.raises(InvalidInput) as refused:
        parse_point(text, "valid_at")
    assert refused.value.field == "valid_at" and "range" in refused.value.rule
