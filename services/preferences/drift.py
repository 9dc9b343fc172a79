"""Drift of a preference, read-only with respect to the preference (DESIGN §12): when its short-term view leaves its
long-term view past the threshold (services/preferences/rules.py `drifted`), one item opens in the conflicts queue
for a person and the ledger records it; the fact's state, epistemic status and versions are never touched. A person
settles the item through `resolve_conflict` (`settle`)."""

from __future__ import annotations

from typing import Any

from credo.graph.core import ledger
from credo.graph.core import versions as fact_repo
from credo.graph.core.ledger import new_id
from credo.graph.preferences import drift as drift_repo
from credo.schema.errors import InvalidInput, NotCurrent, NotFound
from credo.schema.facts import Conflict, Fact
from credo.services.core.unit_of_work import Write
from credo.services.preferences import rules

SETTLING = "reject"
"""The one decision that settles a drift item: the short-term view is set aside and the preference stands as it is.
Changing the preference itself is a person's separate act (correct, end or deprecate the fact)."""


def check(w: Write, fact: Fact, posterior: dict[str, Any]) -> str | None:
    """After a counted outcome: open a drift item (and write its audit event) when the views drifted and none is open
    for the preference; the item's id, or None."""
    found = rules.drifted(posterior["alpha"], posterior["beta"], posterior["outcomes"], posterior["recent"])
    if found is None:
        return None
    short, long = found
    row = {"conflict_id": new_id("pd"), "fact_id": fact.fact_id, "version_id": fact.version_id,
           "short_mean": round(short, 6), "long_mean": round(long, 6), "threshold": rules.DRIFT_THRESHOLD,
           "window": rules.DRIFT_WINDOW, "sensitivity": fact.sensitivity}
    opened = drift_repo.open_item(w.tx, w.tenant, w.known, row)
    if opened is not None:
        ledger.audit(w.tx, w.tenant, w.known, [("preference_drift", fact.fact_id, {
            "conflict_id": opened, "short_mean": row["short_mean"], "long_mean": row["long_mean"],
            "threshold": rules.DRIFT_THRESHOLD, "window": rules.DRIFT_WINDOW})])
    return opened


def settle(w: Write, item: Conflict, decision: str, reason: str | None) -> Fact:
    """A person's decision on a drift item (resolve_conflict): close it, leave the preference as it is; answers the
    preference's current version."""
    if decision != SETTLING:
        raise InvalidInput("decision", f"a preference drift item is settled with {SETTLING!r} (the short-term view is "
                                       "set aside; the preference stands as it is); to change the preference "
                                       "itself, correct, end or deprecate the fact, then settle the item")
    if item.status != "open":
        raise NotCurrent(item.conflict_id, "this drift item was already settled")
    fact_id = item.challenger.fact_id
    current = [f for f in fact_repo.versions_of(w.tx, w.tenant, fact_id) if f.known_to is None]
    if not current:
        raise NotFound("fact", fact_id)
    if drift_repo.close_item(w.tx, w.tenant, w.known, item.conflict_id, decision) != 1:
        raise NotCurrent(item.conflict_id, "this drift item was already settled")
    ledger.audit(w.tx, w.tenant, w.known, [("resolve_conflict", fact_id, {
        "conflict_id": item.conflict_id, "decision": decision, "kind": "preference_drift", "reason": reason})])
    return current[0]
