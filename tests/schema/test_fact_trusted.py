"""A Fact built from values the write path already validated: the same model, without pydantic's per-field work."""

from __future__ import annotations

from datetime import datetime, timezone

from credo.schema.facts import Fact, ObjectValue

NOW = datetime(2026, 12, 2, 1, 0, tzinfo=timezone.utc)
GIVEN = dict(tenant="t", fact_id="f_1", version_id="v_1", subject="Alice", subject_id="e_1", predicate="owns",
             object=ObjectValue(type="entity", value="Acme", entity_id="e_2"), object_name="Acme",
             statement="Alice owns Acme", quote=None, scope={}, kind="semantic", evidence="unknown",
             epistemic="confirmed", confidence=None, sensitivity=None, state="active", valid_from=NOW,
             valid_from_precision="day", valid_to=None, valid_to_precision=None, known_from=NOW, verified_at=NOW,
             independent_sources=1)


def test_a_trusted_fact_equals_the_validated_one_field_for_field_and_gets_the_same_defaults():
    # given values a write validated (the command model, the resolved entities, the store's clock)
    validated = Fact(**GIVEN)
    # when the write path builds its version from them without validating again
    trusted = Fact.trusted(**{name: getattr(validated, name) for name in GIVEN})
    # then it is the same model: every field, the defaults of the fields not given, and what was set
    assert trusted == validated and trusted.model_dump() == validated.model_dump()
    assert trusted.model_fields_set == set(GIVEN) and trusted.known_to is None and trusted.aliases == ()
    # and it behaves as one: copies with changes, stays frozen
    bounded = trusted.model_copy(update={"valid_to": NOW, "bounded_by": "v_0"})
    assert (bounded.valid_to, bounded.bounded_by, trusted.valid_to) == (NOW, "v_0", None)


def test_trusted_facts_do_not_share_a_mutable_default():
    # given two facts built without a scope (its default is a fresh mapping per model)
    validated = Fact(**GIVEN)
    values = {name: getattr(validated, name) for name in GIVEN if name != "scope"}
    one, two = Fact.trusted(**values), Fact.trusted(**values)
    # then each has its own
    assert one.scope == {} and one.scope is not two.scope
