"""The one time type and the command models: normalised once, precision kept, naive instants refused."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from credo.schema import commands as c
from credo.schema.errors import InvalidInput


@pytest.mark.parametrize(
    "given, normalised",
    [
        ("2024", "2024"),
        ("2024-06", "2024-06"),
        ("2024-06-01", "2024-06-01"),
        (date(2024, 6, 1), "2024-06-01"),
        ("2024-06-01T12:00:00+02:00", "2024-06-01T10:00:00+00:00"),
        ("2024-06-01T10:00:00Z", "2024-06-01T10:00:00+00:00"),
        (datetime(2024, 6, 1, 12, tzinfo=timezone(timedelta(hours=2))), "2024-06-01T10:00:00+00:00"),
        (None, None),
    ],
)
def test_time_values_are_normalised_once_keeping_their_precision(given, normalised):
    assert c.build(c.EndFact, fact_id="f_1", at=given).at == normalised if given else True
    assert c.build(c.FactsQuery, valid_at=given).valid_at == normalised


@pytest.mark.parametrize("given", [datetime(2024, 6, 1, 12), "2024-06-01T12:00:00", "June 2024", "2024-13", 20240601])
def test_naive_or_unparseable_times_are_refused_naming_the_field(given):
    with pytest.raises(InvalidInput) as err:
        c.build(c.FactsQuery, known_at=given)
    assert err.value.field == "known_at"


def test_unknown_fields_are_refused_not_ignored():
    with pytest.raises(InvalidInput) as err:
        c.build(c.RetractFact, fact_id="f_1", reason="wrong", reson="typo")
    assert err.value.field == "reson"


def test_every_command_has_a_json_schema_with_its_time_fields_as_strings():
    schema = c.AddFact.model_json_schema()
    assert schema["properties"]["valid_from"]["anyOf"][0]["type"] == "string"
