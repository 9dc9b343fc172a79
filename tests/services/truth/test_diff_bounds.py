"""The belief diff is bounded (issue 27's security pass): a window holding more changes than one answer carries is
refused naming known_b (narrow it), as the transition check refuses a window of too many writes; it is never read
whole into memory first."""

from __future__ import annotations

import pytest

from credo.schema.errors import InvalidInput
from credo.services.truth import diff as diff_service


def test_a_diff_window_holding_more_changes_than_the_cap_is_refused_naming_known_b(store, monkeypatch):
    monkeypatch.setattr(diff_service, "MAX_CHANGES", 3)
    for n in range(4):
        store.add_fact(f"Service {n}", "runs_on", f"Host {n}", valid_from="2024-01-01")
    with pytest.raises(InvalidInput) as refused:
        store.diff("2000-01-01", "2100-01-01")
    assert refused.value.field == "known_b" and "3" in refused.value.rule
    # a window within the cap answers as before
    assert len(store.diff("2000-01-01", "2100-01-01", subject="Service 0").changes) == 1
