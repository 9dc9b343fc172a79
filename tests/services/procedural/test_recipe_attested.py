"""Consent to a user-facing recipe under the tenant flag `attested_human_messages` (services/gate/attest.py): a "yes"
the agent's key ingested itself (while the flag was off) does not make the recipe live once the flag is on; the
person's yes relayed by the harness does."""

from __future__ import annotations

import pytest

from credo.schema.api_keys import Principal
from credo.schema.errors import EvidenceRefused
from credo.services.access import api_keys
from tests.services.procedural.test_recipe_consent import SHAPE, asked, msg, shown  # noqa: F401 (a fixture)

FLAG = "attested_human_messages"


def keyed(store, neo4j_db, preset):
    """The store of a new key of this tenant made with `preset`."""
    made = api_keys.create_key(neo4j_db, tenant=store.tenant, name=preset, scopes=[preset])
    return store.for_principal(Principal.of_key(made.key))


def test_flag_on_a_recipe_consent_with_a_yes_the_agent_vouched_for_is_refused(store, neo4j_db, asked):  # noqa: F811
    agent, harness = keyed(store, neo4j_db, "agent"), keyed(store, neo4j_db, "harness")
    _shown, fake = agent.ingest_messages("s", [shown(), msg(2, "Yes, do it that way")])
    # flag off: the agent is trusted, as today (nothing to refuse yet); on: its own yes is refused, nothing written
    store.set_tenant_flag(FLAG, enabled=True)
    with pytest.raises(EvidenceRefused) as caught:
        agent.consent_recipe(asked.recipe_id, accept=True, message_id=fake.source_id)
    assert caught.value.field == "message_id"
    assert FLAG in caught.value.rule and fake.source_id in caught.value.rule
    assert store.recipes(SHAPE) == [] and store.audit(operation="consent_recipe").items == []
    # and the person's yes, relayed by the harness after the line was shown, makes it live
    [yes] = harness.ingest_messages("s", [msg(3, "Yes, do it that way")])
    assert agent.consent_recipe(asked.recipe_id, accept=True, message_id=yes.source_id).state == "live"
