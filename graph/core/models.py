"""neomodel classes: the declared shape of Credo's graph (DESIGN.md §1).

Migrations in `cypher/schema/` create the constraints and indexes; a test checks that every property
declared unique or indexed here is backed by one in the migrated database. Repositories run Cypher
directly and return `schema` models, never these OGM objects.
"""

from __future__ import annotations

from neomodel import (
    ArrayProperty,
    DateTimeProperty,
    FloatProperty,
    IntegerProperty,
    JSONProperty,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
)


class KnownRel(StructuredRel):
    """Every edge carries the known-time interval in which the store believed it."""

    known_from = DateTimeProperty(required=True)
    known_to = DateTimeProperty()


class AboutRel(KnownRel):
    role = StringProperty(choices={"subject": "subject", "object": "object"}, required=True)


class SourcedFromRel(KnownRel):
    quote = StringProperty()
    span = ArrayProperty(IntegerProperty())


class DependsOnRel(KnownRel):
    justification = StringProperty(required=True)
    valid_from = DateTimeProperty()
    valid_to = DateTimeProperty()


class SupersedesRel(KnownRel):
    kind = StringProperty(
        choices={k: k for k in ("correction", "succession", "retraction", "resolution", "merge")}, required=True
    )
    at = DateTimeProperty()


class DerivedFromRel(KnownRel):
    version_id = StringProperty(required=True)
    hash = StringProperty(required=True)


class ConflictsWithRel(KnownRel):
    conflict_id = StringProperty(required=True)
    status = StringProperty(required=True)
    decision = StringProperty()


class Entity(StructuredNode):
    tenant = StringProperty(required=True)
    entity_id = StringProperty(unique_index=True, required=True)
    name = StringProperty(required=True)
    norm = StringProperty(required=True)
    kind = StringProperty()
    aliases = ArrayProperty(StringProperty())
    aliases_text = StringProperty()
    created_at = DateTimeProperty()
    merged_into = RelationshipTo("Entity", "MERGED_INTO", model=KnownRel)


class Source(StructuredNode):
    tenant = StringProperty(required=True)
    source_id = StringProperty(unique_index=True, required=True)
    kind = StringProperty(required=True)
    text = StringProperty()
    title = StringProperty()
    uri = StringProperty()
    author = StringProperty()
    at = DateTimeProperty()
    session_id = StringProperty(index=True)
    generation = IntegerProperty()
    index = IntegerProperty()
    role = StringProperty()
    origin = StringProperty()
    text_hash = StringProperty()
    known_from = DateTimeProperty()
    consumed_by = StringProperty()
    consumed_at = DateTimeProperty()
    claimed_by = StringProperty()
    claim_expires = DateTimeProperty()


class Fact(StructuredNode):
    tenant = StringProperty(required=True)
    fact_id = StringProperty(index=True, required=True)
    version_id = StringProperty(unique_index=True, required=True)
    subject_id = StringProperty(index=True, required=True)
    subject_name = StringProperty(required=True)
    predicate = StringProperty(required=True)
    object_type = StringProperty(required=True)
    object_value = StringProperty(required=True)
    object_id = StringProperty(index=True)
    object_name = StringProperty()
    statement = StringProperty()
    quote = StringProperty()
    scope_key = StringProperty(required=True)
    kind = StringProperty(required=True)
    evidence = StringProperty(required=True)
    epistemic = StringProperty(required=True)
    confidence = FloatProperty()
    sensitivity = StringProperty()
    state = StringProperty(required=True)
    valid_from = DateTimeProperty()
    valid_from_precision = StringProperty()
    valid_to = DateTimeProperty()
    valid_to_precision = StringProperty()
    known_from = DateTimeProperty(required=True)
    known_to = DateTimeProperty()
    verified_at = DateTimeProperty()
    ended_by = StringProperty()
    end_reason = StringProperty()
    bounded_by = StringProperty()
    stale_cause = StringProperty()
    embedding = ArrayProperty(FloatProperty())

    about = RelationshipTo(Entity, "ABOUT", model=AboutRel)
    sourced_from = RelationshipTo(Source, "SOURCED_FROM", model=SourcedFromRel)
    accepted_in = RelationshipTo(Source, "ACCEPTED_IN", model=KnownRel)
    depends_on = RelationshipTo("Fact", "DEPENDS_ON", model=DependsOnRel)
    supersedes = RelationshipTo("Fact", "SUPERSEDES", model=SupersedesRel)
    conflicts_with = RelationshipTo("Fact", "CONFLICTS_WITH", model=ConflictsWithRel)


class Summary(StructuredNode):
    tenant = StringProperty(required=True)
    summary_id = StringProperty(index=True, required=True)
    version_id = StringProperty(unique_index=True, required=True)
    text = StringProperty()
    text_hash = StringProperty()
    state = StringProperty(required=True)
    known_from = DateTimeProperty(required=True)
    known_to = DateTimeProperty()
    derived_from = RelationshipTo(Fact, "DERIVED_FROM", model=DerivedFromRel)


class Recipe(StructuredNode):
    """One version of a recipe (procedural memory); forgetting removes task_shape, shape_key and steps."""

    tenant = StringProperty(required=True)
    recipe_id = StringProperty(index=True, required=True)
    version_id = StringProperty(unique_index=True, required=True)
    task_shape = StringProperty()
    shape_key = StringProperty(index=True)
    steps = ArrayProperty(StringProperty())
    because = StringProperty(index=True, required=True)
    state = StringProperty(required=True)
    uses = IntegerProperty()
    successes = IntegerProperty()
    rate = FloatProperty()
    known_from = DateTimeProperty(required=True)
    known_to = DateTimeProperty()
    forgotten_at = DateTimeProperty()


class Verification(StructuredNode):
    """A verifier's recorded verdict on one fact version (VERIFIED_BY from the version); never changes the version."""

    tenant = StringProperty(required=True)
    verification_id = StringProperty(unique_index=True, required=True)
    fact_id = StringProperty(required=True)
    version_id = StringProperty(index=True, required=True)
    verifier = StringProperty(required=True)
    verdict = StringProperty(required=True)
    overreach_kind = StringProperty()
    reason = StringProperty()
    actor = StringProperty()
    known_from = DateTimeProperty(required=True)


class ReviewItem(StructuredNode):
    """A request in the human review queue (REVIEWS the fact version); holds no copy of the statement or excerpt."""

    tenant = StringProperty(required=True)
    item_id = StringProperty(unique_index=True, required=True)
    fact_id = StringProperty(required=True)
    version_id = StringProperty(index=True, required=True)
    state = StringProperty(index=True, required=True)
    requested_at = DateTimeProperty(required=True)
    requested_by = StringProperty()
    decided_at = DateTimeProperty()
    decided_by = StringProperty()
class WritePolicy(StructuredNode):
    """One version of a tenant's write policy (DESIGN §9): the document as JSON text, known from / to."""

    tenant = StringProperty(index=True, required=True)
    policy_id = StringProperty(unique_index=True, required=True)
    document = StringProperty(required=True)
    set_by = StringProperty()
    known_from = DateTimeProperty(required=True)
    known_to = DateTimeProperty()


class AuditEvent(StructuredNode):
    tenant = StringProperty(required=True)
    event_id = StringProperty(unique_index=True, required=True)
    at = DateTimeProperty(required=True)
    action = StringProperty(required=True)
    subject_id = StringProperty()
    detail = JSONProperty()


class Clock(StructuredNode):
    tenant = StringProperty(unique_index=True, required=True)
    last = DateTimeProperty()


class SchemaMigration(StructuredNode):
    version = IntegerProperty(unique_index=True, required=True)
    name = StringProperty(required=True)
    checksum = StringProperty(required=True)
    applied_at = DateTimeProperty()


DECLARED = [Entity, Source, Fact, Summary, Recipe, Verification, ReviewItem, WritePolicy, AuditEvent, Clock,
            SchemaMigration]
"""Node classes whose unique and indexed properties the migrations must back."""

