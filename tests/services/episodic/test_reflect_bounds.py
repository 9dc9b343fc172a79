"""Reflection under attack (issue 27's security pass): it writes its ledger event, so a key that may only read is
refused before any episode is read or any extractor called; and one reflection reads a bounded window (a wider one
is refused naming `to`), so no caller can make the server read every episode of a tenant, or make the extractor's
endpoint run once per twenty of them, in one call."""

from __future__ import annotations

import pytest

from credo.schema.api_keys import Principal
from credo.schema.errors import Forbidden, InvalidInput
from credo.services.adapters.extractors import ScriptedExtractor
from credo.services.episodic import reflect as reflect_service


def _rides(store, days):
    for day in days:
        store.add_fact("Alice", "took", "the 8:10 train", kind="episodic", valid_from=f"2025-05-{day:02d}T08:10:00Z",
                       object_is_entity=False, statement="Alice took the 8:10 train")


def test_a_read_only_key_is_refused_reflect_before_the_extractor_is_called(store, clock):
    clock.at("2025-05-20T12:00:00+00:00")
    _rides(store, (5, 6))
    extractor = ScriptedExtractor([[]])
    reader = store.for_principal(Principal(tenant=store.tenant, scopes=frozenset({"read"})))
    with pytest.raises(Forbidden) as refused:
        reader.reflect(entity="Alice", extractor=extractor)
    assert refused.value.field == "scope"
    assert extractor.calls == [] and store.audit(operation="reflect").items == []


def test_a_reflection_over_more_episodes_than_the_cap_is_refused_naming_to(store, clock, monkeypatch):
    monkeypatch.setattr(reflect_service, "MAX_EPISODES", 2)
    clock.at("2025-05-20T12:00:00+00:00")
    _rides(store, (5, 6, 7))
    extractor = ScriptedExtractor([[]])
    with pytest.raises(InvalidInput) as refused:
        store.reflect(entity="Alice", extractor=extractor)
    assert refused.value.field == "to" and "2" in refused.value.rule
    assert extractor.calls == [] and store.audit(operation="reflect").items == []
    # a window within the cap reflects as before
    assert store.reflect(entity="Alice", from_="2025-05-06").episodes == 2
