"""Every write path validates: bad input is InvalidInput(field, rule); one bad stored row never sinks a read."""

from __future__ import annotations

import logging

import pytest

from credo.schema.errors import ConflictError, InvalidInput, NotFound

MB = "x" * 1_000_000


def names(reported: str, field: str) -> bool:
    """The error names the field, or an element of it (`scope.env`, `fact_ids.0` name the offending entry)."""
    return reported == field or reported.startswith(field + ".")


class _Q:  # raw Cypher for the tests only (not shipped Cypher)
    def __init__(self, text):
        self.text = text


_DAMAGE = _Q("MATCH (f:Fact {tenant: $tenant, version_id: $version_id}) SET f[$field] = $value")


def damage(store, version_id, field, value):
    """Write a bad property straight into a stored version, as an old bug or a hand edit would."""
    store._ctx.db.query(_DAMAGE, write=True, tenant=store.tenant, version_id=version_id, field=field, value=value)


def versions(store, fact_id):
    return len(store.history(fact_id))


# -- revisions go through the same validation as add_fact --------------------------------------------------------

BAD_CONTENT = [
    ({"kind": "bogus"}, "kind"),
    ({"confidence": 5}, "confidence"),
    ({"confidence": -0.1}, "confidence"),
    ({"confidence": "high"}, "confidence"),
    ({"statement": ""}, "statement"),
    ({"statement": "   "}, "statement"),
    ({"statement": None}, "statement"),
    ({"statement": 42}, "statement"),
    ({"statement": "x" * (16 * 1024 + 1)}, "statement"),
    ({"quote": "x" * (16 * 1024 + 1)}, "quote"),
    ({"scope": "prod"}, "scope"),
    ({"scope": {"env": 1}}, "scope"),
    ({"sensitivity": 3}, "sensitivity"),
]


@pytest.mark.parametrize(("change", "field"), BAD_CONTENT, ids=[f"{f}={list(c.values())[0]!r}"[:40] for c, f in BAD_CONTENT])
def test_correct_fact_refuses_what_add_fact_refuses_and_writes_nothing(store, change, field):
    # given a fact
    fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    # when a correction sets a bad value, then it is refused naming the field
    with pytest.raises(InvalidInput) as refused:
        store.correct_fact(fact.fact_id, **change)
    assert names(refused.value.field, field)
    # and nothing was written: the fact still reads, with one version
    assert versions(store, fact.fact_id) == 1
    assert [f.fact_id for f in store.facts("Acme account")] == [fact.fact_id]


# add_fact takes no quote, and writes a statement itself when given None
ADD_CONTENT = [(c, f) for c, f in BAD_CONTENT if "quote" not in c and c.get("statement", "") is not None]


@pytest.mark.parametrize(("change", "field"), ADD_CONTENT, ids=[f"{f}={list(c.values())[0]!r}"[:40] for c, f in ADD_CONTENT])
def test_add_fact_refuses_bad_content_naming_the_field(store, change, field):
    with pytest.raises(InvalidInput) as refused:
        store.add_fact("Acme account", "owned_by", "Alice", **change)
    assert names(refused.value.field, field)
    assert store.facts("Acme account") == []


@pytest.mark.parametrize(("change", "field"), [c for c in BAD_CONTENT if c[0].get("statement", "") is not None])
def test_succeed_fact_refuses_bad_successor_content(store, change, field):
    fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    with pytest.raises(InvalidInput) as refused:
        store.succeed_fact(fact.fact_id, object="Bob", at="2024-06-01", **change)
    assert names(refused.value.field, field)
    assert versions(store, fact.fact_id) == 1


@pytest.mark.parametrize(("field", "value"), [
    ("subject", MB), ("predicate", "p" * 513), ("object", "o" * 513), ("statement", MB),
])
def test_oversized_values_are_refused_with_the_limit(store, field, value):
    # given the documented limits (names <= 512 characters, statement and quote <= 16 KiB)
    row = {"subject": "Acme account", "predicate": "owned_by", "object": "Alice"} | {field: value}
    # when a caller sends more, then the refusal names the field and the limit, not Neo4j's index error
    with pytest.raises(InvalidInput) as refused:
        store.add_fact(**row)
    assert names(refused.value.field, field)
    assert "at most" in refused.value.rule
    assert store.facts() == []


def test_names_at_the_limit_are_accepted(store):
    fact = store.add_fact("s" * 512, "owned_by", "o" * 512, statement="x" * (16 * 1024), valid_from="2024-01-01")
    assert store.facts("s" * 512)[0].fact_id == fact.fact_id


def test_write_range_and_add_facts_validate_like_add_fact(store):
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    with pytest.raises(InvalidInput) as refused:
        store.write_range("Acme account", "owned_by", "Bob", valid_from="2024-03-01", valid_to="2024-04-01",
                          statement="")
    assert refused.value.field == "statement"
    with pytest.raises(InvalidInput) as refused:
        store.add_facts([{"subject": "Acme", "predicate": "owned_by", "object": "Bob", "confidence": 7}])
    assert refused.value.field == "rows.0.confidence"  # the row named as it was sent


# -- a bad stored row is reported by name, never fatal to the read ------------------------------------------------

BAD_ROWS = [  # (stored property, bad value, the Fact field named)
    ("kind", "bogus", "kind"),
    ("state", "bogus", "state"),
    ("evidence", "bogus", "evidence"),
    ("object_type", "bogus", "object"),
    ("scope_key", "not json", "scope"),
    ("confidence", "high", "confidence"),
    ("confidence", 5, "confidence"),
    ("statement", 7, "statement"),
    ("known_from", "yesterday", "known_from"),
]


@pytest.mark.parametrize(("prop", "value", "field"), BAD_ROWS)
def test_a_damaged_row_is_reported_by_name_and_the_rest_still_reads(store, caplog, prop, value, field):
    # given two facts about one subject, one of them damaged by raw Cypher
    good = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    bad = store.add_fact("Acme account", "located_in", "Berlin", valid_from="2024-01-01")
    damage(store, bad.version_id, prop, value)
    # when the subject, the whole tenant, the relations and the bad fact's history are read
    with caplog.at_level(logging.WARNING, logger="credo"):
        by_subject = store.facts("Acme account")
        everything = store.facts()
        relations = store.relations("Acme account")
        history = store.history(bad.fact_id)
    # then the good fact is served, and the bad version is named, not fatal
    assert [f.fact_id for f in by_subject] == [good.fact_id]
    assert [f.fact_id for f in everything] == [good.fact_id]
    assert [r.fact.fact_id for r in relations] == [good.fact_id]
    assert history == []
    # (a state no query serves is filtered out by the query itself; history reads every state)
    for found in (history,) if prop in ("state", "known_from") else (by_subject, everything, history):
        assert [u.version_id for u in found.unreadable] == [bad.version_id]
        assert found.unreadable[0].field == field
    assert bad.version_id in caplog.text


def test_why_of_a_damaged_fact_names_what_is_unreadable(store):
    fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    damage(store, fact.version_id, "kind", "bogus")
    with pytest.raises(InvalidInput) as refused:
        store.why(fact.fact_id)
    assert refused.value.field == "kind"
    assert fact.version_id in refused.value.rule


@pytest.mark.parametrize("repair", [
    lambda store, fid: store.correct_fact(fid, kind="semantic"),
    lambda store, fid: store.retract_fact(fid, reason="bad import"),
], ids=["correct_fact", "retract_fact"])
def test_a_damaged_fact_can_be_repaired(store, repair):
    # given a fact whose stored kind is unreadable
    fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    damage(store, fact.version_id, "kind", "bogus")
    # when it is corrected or retracted, then the repair works
    repair(store, fact.fact_id)
    # and what is read afterwards reads cleanly again
    now = store.facts("Acme account")
    assert now.unreadable == []


def test_correcting_a_damaged_fact_must_fix_the_damaged_field(store):
    fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    damage(store, fact.version_id, "kind", "bogus")
    with pytest.raises(InvalidInput) as refused:
        store.correct_fact(fact.fact_id, confidence=0.5)
    assert refused.value.field == "kind"
    fixed = store.correct_fact(fact.fact_id, confidence=0.5, kind="episodic")
    assert (fixed.kind, fixed.confidence) == ("episodic", 0.5)
    assert [f.fact_id for f in store.facts("Acme account")] == [fact.fact_id]


# -- bad input gets InvalidInput naming the field ------------------------------------------------------------------

def _fact(store):
    return store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")


BAD_CALLS = [
    ("merge_entities(None)", lambda s, f: s.merge_entities(None, "Alice"), "keep"),
    ("unmerge_entities(5)", lambda s, f: s.unmerge_entities(5), "other"),
    ("add_facts(None)", lambda s, f: s.add_facts(None), "rows"),
    ("add_facts([None])", lambda s, f: s.add_facts([None]), "rows"),
    ("merge_facts(None)", lambda s, f: s.merge_facts(None, statement="x"), "fact_ids"),
    ("merge_facts([1, 2])", lambda s, f: s.merge_facts([1, 2], statement="x"), "fact_ids"),
    ("why(None)", lambda s, f: s.why(None), "fact_id"),
    ("history(None)", lambda s, f: s.history(None), "fact_id"),
    ("correct_fact(None)", lambda s, f: s.correct_fact(None, statement="x"), "fact_id"),
    ("succeed_fact(123)", lambda s, f: s.succeed_fact(123, object="Bob", at="2024-06-01"), "fact_id"),
    ("facts(123)", lambda s, f: s.facts(123), "subject"),
    ("facts(predicate=1)", lambda s, f: s.facts(predicate=1), "predicate"),
    ("facts(scope='prod')", lambda s, f: s.facts(scope="prod"), "scope"),
    ("add_fact(scope='prod')", lambda s, f: s.add_fact("A", "owned_by", "B", scope="prod"), "scope"),
    ("chain(None)", lambda s, f: s.chain(None, "owned_by"), "subject"),
    ("relations(None)", lambda s, f: s.relations(None), "entity"),
    ("retract_fact(reason=123)", lambda s, f: s.retract_fact(f.fact_id, reason=123), "reason"),
    ("define_predicate(inverse=123)", lambda s, f: s.define_predicate("manages", inverse=123), "inverse"),
    ("define_predicate(None)", lambda s, f: s.define_predicate(None), "name"),
    ("holders(None)", lambda s, f: s.holders(None, "Alice"), "predicate"),
    ("holders(object=None)", lambda s, f: s.holders("owned_by", None), "object"),
    ("end_fact before valid_from", lambda s, f: s.end_fact(f.fact_id, at="2023-01-01"), "at"),
    ("add_fact(subject=None)", lambda s, f: s.add_fact(None, "owned_by", "B"), "subject"),
    ("add_fact(predicate=5)", lambda s, f: s.add_fact("A", 5, "B"), "predicate"),
    ("justify(None)", lambda s, f: s.justify(None, premises=[f.fact_id]), "fact_id"),
    ("resolve_conflict(scope='prod')", lambda s, f: s.resolve_conflict("c_x", decision="split_scope", scope="prod"),
     "scope"),
    ("reject(reason=123)", lambda s, f: s.reject(f.fact_id, reason=123), "reason"),
    ("merge_facts(statement=16 KiB + 1)", lambda s, f: s.merge_facts(
        [f.fact_id, s.add_fact("Beta account", "owned_by", "Alice", valid_from="2024-02-01").fact_id],
        statement="x" * (16 * 1024 + 1)), "statement"),
]


@pytest.mark.parametrize(("call", "field"), [(c, fld) for _n, c, fld in BAD_CALLS], ids=[n for n, _c, _f in BAD_CALLS])
def test_bad_input_is_invalid_input_naming_the_field(store, call, field):
    fact = _fact(store)
    with pytest.raises(InvalidInput) as refused:
        call(store, fact)
    assert names(refused.value.field, field)
    # a refused write wrote nothing
    assert [v.version_id for v in store.history(fact.fact_id)] == [fact.version_id]


def test_remember_and_split_scope_validate_like_add_fact(store, clock):
    # given a human turn and a conflict
    store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "ann",
                                  "text": "Bob owns the Acme account now.", "at": "2025-01-01T10:00:00+00:00"}])
    turn = store.turn("s1")
    # when remember rewrites the quote into an oversized content, or names a bad scope, then it is refused
    with pytest.raises(InvalidInput) as refused:
        turn.remember("Bob owns the Acme account", "x" * 2000)
    assert refused.value.field == "content"
    with pytest.raises(InvalidInput) as refused:
        turn.remember("Bob owns the Acme account", "Bob owns the Acme account", scope={"env": 2})
    assert refused.value.field == "scope"
    assert store.facts(states=["active", "candidate", "conflicted"]) == []


def test_justifications_of_an_unknown_fact_is_not_found(store):
    with pytest.raises(NotFound):
        store.justifications("f_nope")


# -- predicate and entity names are normalised -----------------------------------------------------------------

@pytest.mark.parametrize("spelling", ["Owned_By", "owned by", "OWNED-BY", " owned  by ", "owned\u200b_by", "\ufeffowned_by",
                                      "ｏｗｎｅｄ＿ｂｙ"])
def test_spellings_of_a_predicate_share_one_single_valued_slot(store, spelling):
    # given Alice owns the account
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    # when another spelling of the same predicate names Bob from the same day
    bob = store.add_fact("Acme account", spelling, "Bob", valid_from="2024-01-01")
    # then it is one slot: Bob's write is kept as a conflict, stored under the normalised name
    assert bob.state == "conflicted"
    assert bob.predicate == "owned_by"
    assert [f.fact_id for f in store.facts("Acme account", spelling)] == [alice.fact_id]
    assert [f.fact_id for f in store.holders(spelling, "Alice")] == [alice.fact_id]
    assert [f.fact_id for f in store.chain("Acme account", spelling)] == [alice.fact_id]


def test_a_defined_predicate_applies_to_every_spelling(store):
    defined = store.define_predicate("Member Of", cardinality="multi", inverse="Has\u200b Member")
    assert (defined.name, defined.inverse) == ("member_of", "has_member")
    store.add_fact("Alice", "member_of", "Team A", valid_from="2024-01-01")
    second = store.add_fact("Alice", "member-of", "Team B", valid_from="2024-01-01")
    assert second.state == "active"
    assert {r.predicate for r in store.relations("Team A")} == {"has_member"}


@pytest.mark.parametrize("name", ["", "\u200b", " _ ", "--"])
def test_a_predicate_with_nothing_left_after_normalising_is_refused(store, name):
    with pytest.raises(InvalidInput) as refused:
        store.add_fact("Acme", name, "Alice")
    assert refused.value.field == "predicate"


def test_invisible_characters_do_not_make_a_second_entity(store):
    alice = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
    again = store.add_fact("Acme\u200b account", "owned_by", "Al\ufeffice", valid_from="2024-01-01")
    assert again.fact_id == alice.fact_id  # a restatement of the same claim: reinforced, not a second owner
    assert [f.fact_id for f in store.facts("Acme account\u2060")] == [alice.fact_id]
    assert store.facts("Acme\u200b account")[0].subject == "Acme account"


def test_stored_entity_names_keep_no_invisible_characters(store):
    fact = store.add_fact("Zed\u200b Corp", "owned_by", "Bo\u200bb")
    assert (fact.subject, fact.object_name) == ("Zed Corp", "Bob")
