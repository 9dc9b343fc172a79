"""A key may not write or forget what its clearance cannot read (issue 24 §1-2): an id whose content is above the
caller's clearance answers NotFound exactly like a missing id on every revising, curating and forgetting operation;
a label above the caller's clearance is refused; an unlabelled write below `internal` carries the caller's level;
a write's answer names nothing above the caller's clearance; re-adding a fact under another label writes a new
version with it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from credo.schema.errors import Forbidden, InvalidInput, NotFound
from credo.services.adapters.summarizers import ListSummarizer
from credo.store import Store

MISSING = {"f": "f_00000000000000000000", "v": "v_00000000000000000000", "c": "c_00000000000000000000",
           "sum": "sum_00000000000000000000", "e": "e_00000000000000000000"}


@pytest.fixture
def secret_world(store, clock):
    """A secret fact (with a summary, a conflict, a premise use and a source), and a public store of the tenant."""
    clock.at("2024-02-01")
    secret = store.add_fact("Vault", "holds", "Gold", valid_from="2024-01-01", sensitivity="secret",
                            statement="the vault holds gold")
    challenger = store.add_fact("Vault", "holds", "Silver", valid_from="2024-03-01", sensitivity="secret")
    [conflict] = store.conflicts()
    summary = store.add_summary("the vault summary", derived_from=[secret.fact_id])
    [source] = store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "mia",
                                             "text": "The vault holds gold.", "at": "2024-02-01T10:00:00Z"}])
    store.cite(secret.fact_id, source.source_id, quote="The vault holds gold")
    entity = store.relations("Vault")[0].fact.subject_id
    return {"store": store, "public": store.for_tenant(store.tenant, clearance="public"), "secret": secret,
            "challenger": challenger, "conflict": conflict, "summary": summary, "source": source, "entity": entity}


def _refusals(w) -> dict[str, Callable[[Store, dict[str, str]], object]]:
    """Each act on a hidden id, as a call taking the store and the ids to name (hidden or missing)."""
    return {
        "correct_fact": lambda s, i: s.correct_fact(i["f"], statement="changed"),
        "correct_version": lambda s, i: s.correct_fact(i["v"], statement="changed"),
        "succeed_fact": lambda s, i: s.succeed_fact(i["f"], object="Copper", at="2024-06-01"),
        "end_fact": lambda s, i: s.end_fact(i["f"], at="2024-06-01"),
        "retract_fact": lambda s, i: s.retract_fact(i["f"], reason="wrong"),
        "retract_version": lambda s, i: s.retract_fact(i["v"], reason="wrong"),
        "deprecate": lambda s, i: s.deprecate(i["f"], reason="old", actor="cu"),
        "quarantine": lambda s, i: s.quarantine(fact_id=i["f"], reason="odd", actor="cu"),
        "release": lambda s, i: s.release(fact_id=i["f"], reason="fine", actor="cu"),
        "admit": lambda s, i: s.admit(i["f"], by="cu"),
        "reject": lambda s, i: s.reject(i["f"], reason="no"),
        "reverify": lambda s, i: s.reverify(i["f"], outcome="holds", note="checked"),
        "justify_dependent": lambda s, i: s.justify(i["f"], premises=[w["public_fact"].fact_id]),
        "justify_premise": lambda s, i: s.justify(w["public_fact"].fact_id, premises=[i["f"]]),
        "depends_on": lambda s, i: s.add_fact("Door", "opens", "Monday", depends_on=[i["f"]]),
        "cite": lambda s, i: s.cite(i["f"], w["source"].source_id),
        "merge_facts": lambda s, i: s.merge_facts([i["f"], w["public_fact"].fact_id], statement="merged"),
        "resolve_conflict": lambda s, i: s.resolve_conflict(i["c"], decision="reject", reason="no"),
        "rebuild": lambda s, i: s.rebuild(i["sum"], summarizer=ListSummarizer()),
        "forget_fact": lambda s, i: s.forget(i["f"], reason="gdpr", actor="cu"),
        "forget_summary": lambda s, i: s.forget(i["sum"], reason="gdpr", actor="cu"),
        "forget_entity": lambda s, i: s.forget(i["e"], reason="gdpr", actor="cu"),
        "purge": lambda s, i: s.purge(i["f"]),
        "verify_forgotten": lambda s, i: s.verify_forgotten(i["f"]),
        "forget_subject": lambda s, i: s.forget_subject(i["e"], reason="gdpr", actor="cu"),
        "utility": lambda s, i: s.utility(i["f"]),
        "tasks_served": lambda s, i: s.tasks_served(i["f"]),
        "history": lambda s, i: s.history(i["f"]),
        "why": lambda s, i: s.why(i["f"]),
        "summary": lambda s, i: s.summary(i["sum"]),
    }


ACTS = list(_refusals({"public_fact": None, "source": None}))


@pytest.mark.parametrize("act", ACTS)
def test_an_act_on_an_id_above_the_callers_clearance_answers_like_a_missing_id(secret_world, act):
    # given a public fact the public caller may use, and ids whose content is secret
    w = secret_world
    w["public_fact"] = w["store"].add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public")
    call = _refusals(w)[act]
    hidden = {"f": w["secret"].fact_id, "v": w["secret"].version_id, "c": w["conflict"].conflict_id,
              "sum": w["summary"].summary_id, "e": w["entity"]}
    before = w["store"].history(w["secret"].fact_id)
    # when the public caller acts on the hidden ids, and on ids that do not exist
    with pytest.raises(NotFound) as on_hidden:
        call(w["public"], hidden)
    with pytest.raises(NotFound) as on_missing:
        call(w["public"], MISSING)
    # then both answer the same NotFound (the kind, and the message but for the id named)
    assert on_hidden.value.kind == on_missing.value.kind
    text = str(on_hidden.value)
    for key, ref in hidden.items():
        text = text.replace(ref, MISSING[key])
    assert text == str(on_missing.value)
    # and nothing about the secret fact changed
    assert w["store"].history(w["secret"].fact_id) == before


def test_a_label_above_the_callers_clearance_is_refused_and_nothing_is_written(store):
    public = store.for_tenant(store.tenant, clearance="public")
    with pytest.raises(Forbidden) as refused:
        public.add_fact("Door", "opens", "Friday", sensitivity="confidential")
    assert refused.value.field == "sensitivity"
    assert store.facts("Door") == []
    made = public.add_fact("Door", "opens", "Friday", sensitivity="public")
    with pytest.raises(Forbidden):
        public.correct_fact(made.fact_id, sensitivity="secret")
    with pytest.raises(Forbidden):
        public.succeed_fact(made.fact_id, object="Monday", at="2026-01-01", sensitivity="internal")
    assert [v.sensitivity for v in store.history(made.fact_id)] == ["public"]


@pytest.mark.parametrize(("clearance", "label"), [("public", "public"), ("internal", None), ("confidential", None),
                                                   ("secret", None), ("all", None)])
def test_an_unlabelled_write_below_internal_carries_the_callers_level(store, clearance, label):
    # unlabelled counts as internal: a public caller's unlabelled write is labelled public, so it can read it back
    writer = store.for_tenant(store.tenant, clearance=clearance)
    made = writer.add_fact("Door", "opens", "Friday")
    assert made.sensitivity == label
    assert [f.fact_id for f in writer.facts("Door")] == [made.fact_id]


def test_re_adding_a_served_fact_under_another_label_writes_a_version_with_the_new_label(store):
    # given a fact served as public
    first = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public")
    # when it is re-added, the same claim, as secret
    again = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="secret")
    # then a new version of the same fact carries the new label, and a public caller no longer reads it
    assert again.fact_id == first.fact_id and again.version_id != first.version_id
    assert again.sensitivity == "secret"
    assert [(v.sensitivity, v.known_to is None) for v in store.history(first.fact_id)] == [("public", False),
                                                                                           ("secret", True)]
    assert store.for_tenant(store.tenant, clearance="public").facts("Door") == []
    # and re-added as it is now, it only reinforces (no new version)
    same = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="secret")
    assert same.version_id == again.version_id and same.state == "reinforced"


def test_a_near_duplicate_joined_under_another_label_carries_the_new_label(store):
    import credo

    # given a semantic claim with a text object, served as public
    first = store.add_fact("Door", "policy", credo.text("opens at nine"), statement="The door opens at nine.",
                           sensitivity="public")
    # when the same statement in other punctuation and case joins it, labelled confidential
    joined = store.add_fact("Door", "policy", credo.text("opens at nine"), statement="the door opens at nine",
                            sensitivity="confidential")
    # then the joined version carries the new label
    assert joined.fact_id == first.fact_id and joined.sensitivity == "confidential"
    assert store.for_tenant(store.tenant, clearance="public").facts("Door") == []


def test_a_restatement_of_a_hidden_fact_is_a_claim_of_the_callers_own(store):
    # given a secret fact
    secret = store.add_fact("Vault", "holds", "Gold", valid_from="2024-01-01", sensitivity="secret")
    # when a public caller states the same claim
    public = store.for_tenant(store.tenant, clearance="public")
    mine = public.add_fact("Vault", "holds", "Gold", valid_from="2024-01-01")
    # then it is a fact of its own, labelled public, and the secret one is untouched
    assert mine.fact_id != secret.fact_id and mine.sensitivity == "public" and mine.state == "active"
    assert [v.version_id for v in store.history(secret.fact_id)] == [secret.version_id]
    assert [f.fact_id for f in public.facts("Vault")] == [mine.fact_id]


def test_a_writers_cascade_report_names_nothing_above_its_clearance(store):
    # given a public premise with a secret dependent and a public one
    premise = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public")
    store.add_fact("Vault", "opens", "Friday", valid_from="2024-01-01", sensitivity="secret",
                   statement="the gold vault opens when the door does", depends_on=[premise.fact_id])
    open_too = store.add_fact("Hall", "opens", "Friday", valid_from="2024-01-01", sensitivity="public",
                              depends_on=[premise.fact_id])
    # when a public caller retracts the premise
    public = store.for_tenant(store.tenant, clearance="public")
    [retracted] = public.retract_fact(premise.fact_id, reason="wrong")
    # then its report names the public dependent and counts the secret one
    report = retracted.cascade
    assert [f.fact_id for f in report.facts] == [open_too.fact_id]
    assert report.withheld == 1
    assert "gold" not in report.model_dump_json()
    # while a caller cleared for all sees both
    assert len(store.stale()) == 2


def test_a_stale_cause_quotes_a_premise_only_to_readers_who_may_see_it(store):
    # given a public rule resting on a secret premise, and a secret rule resting on it too
    premise = store.add_fact("Vault", "opens", "Friday", valid_from="2024-01-01", sensitivity="secret",
                             statement="the gold vault opens on Friday")
    public_rule = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public",
                                 depends_on=[premise.fact_id])
    secret_rule = store.add_fact("Hall", "opens", "Friday", valid_from="2024-01-01", sensitivity="secret",
                                 depends_on=[premise.fact_id])
    # when the premise is corrected
    store.correct_fact(premise.fact_id, statement="the gold vault opens on Monday")
    # then the public rule's cause names the premise by id only; the secret rule's quotes it
    causes = {i.id: i.cause for i in store.stale()}
    assert "gold" not in causes[public_rule.fact_id] and premise.fact_id in causes[public_rule.fact_id]
    assert "gold vault opens on Friday" in causes[secret_rule.fact_id]


def test_a_merge_is_as_sensitive_as_its_most_sensitive_input(store):
    a = store.add_fact("Door", "opens_on", "Friday", valid_from="2024-01-01", valid_to="2024-06-01",
                       sensitivity="public")
    b = store.add_fact("Door", "opens_on", "Friday", valid_from="2024-06-01", sensitivity="secret")
    assert a.fact_id != b.fact_id
    merged = store.merge_facts([a.fact_id, b.fact_id], statement="the door opens on Fridays")
    assert merged.sensitivity == "secret"


def test_forgetting_the_whole_tenant_needs_clearance_for_every_label(store):
    store.add_fact("Door", "opens", "Friday")
    with pytest.raises(Forbidden):
        store.for_tenant(store.tenant, clearance="secret").forget_tenant(reason="close", actor="ops")
    assert len(store.facts("Door")) == 1


def test_a_key_with_an_unknown_clearance_is_never_made(neo4j_db, tenant):
    from credo.services.access import api_keys

    with pytest.raises(InvalidInput) as refused:
        api_keys.create_key(neo4j_db, tenant=tenant, clearance="topsecret")
    assert refused.value.field == "clearance" and "public" in refused.value.rule and "all" in refused.value.rule
    assert api_keys.list_keys(neo4j_db, tenant=tenant) == []
    assert api_keys.create_key(neo4j_db, tenant=tenant, clearance=" Secret ").key.clearance == "secret"


def test_a_summary_whose_input_became_secret_is_not_rebuilt_by_a_public_caller(store):
    # given a public summary of a public fact, and the fact corrected into a secret one
    fact = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public")
    summary = store.add_summary("when the door opens", derived_from=[fact.fact_id])
    store.correct_fact(fact.fact_id, sensitivity="secret", statement="the vault door opens on Friday")
    public = store.for_tenant(store.tenant, clearance="public")
    # when a public caller rebuilds it, then it answers like a missing summary, and the summary is as it was
    with pytest.raises(NotFound):
        public.rebuild(summary.summary_id, summarizer=ListSummarizer())
    assert store.summary(summary.summary_id).version_id == summary.version_id
    # while a caller cleared for it rebuilds it from the input as it is now
    assert "vault" in store.rebuild(summary.summary_id, summarizer=ListSummarizer()).text


def test_a_range_write_over_a_hidden_value_is_refused_and_changes_nothing(store):
    # given a secret value of (subject, predicate) believed now, summarised
    secret = store.add_fact("Vault", "holds", "Gold", valid_from="2024-01-01", sensitivity="secret")
    summary = store.add_summary("what the vault holds", derived_from=[secret.fact_id])
    before = (store.history(secret.fact_id), store.summary(summary.summary_id).version_id,
              [e.event_id for e in store.audit().items])
    public = store.for_tenant(store.tenant, clearance="public")
    # when a public curator writes a range across it
    with pytest.raises(Forbidden) as refused:
        public.write_range("Vault", "holds", "Silver", valid_from="2024-03-01", valid_to="2024-04-01")
    # then it is refused naming the range, saying nothing of the value, and nothing changed: no version, no event,
    # no cascade into its summary
    assert refused.value.field == "valid_from" and "Gold" not in str(refused.value)
    assert (store.history(secret.fact_id), store.summary(summary.summary_id).version_id,
            [e.event_id for e in store.audit().items]) == before
    # while a range the hidden value does not overlap is written as before
    made = public.write_range("Vault", "holds", "Silver", valid_from="2023-01-01", valid_to="2023-06-01")
    assert made.sensitivity == "public" and store.history(secret.fact_id) == before[0]


def test_a_range_write_over_visible_values_splits_them_as_before(store):
    internal = store.add_fact("Door", "colour", "Red", valid_from="2024-01-01")
    confidential = store.for_tenant(store.tenant, clearance="confidential")
    made = confidential.write_range("Door", "colour", "Blue", valid_from="2024-03-01", valid_to="2024-04-01")
    assert made.object_name == "Blue"
    assert [v.known_to is None for v in store.history(internal.fact_id)] == [False, True, True]


@pytest.mark.parametrize("named", ["Acme account", "acme ACCOUNT"])
def test_forgetting_by_name_an_entity_with_a_hidden_fact_answers_like_a_missing_name(store, named):
    # given a visible entity that also has a secret fact
    store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01", sensitivity="public")
    store.add_fact("Acme account", "discount", "40 %", valid_from="2024-01-01", sensitivity="secret",
                   object_is_entity=False)
    public = store.for_tenant(store.tenant, clearance="public")
    # when a public curator forgets it by name, and forgets a name no entity has
    with pytest.raises(NotFound) as hidden:
        public.forget_subject(named, reason="gdpr", actor="cu")
    with pytest.raises(NotFound) as missing:
        public.forget_subject("No Such Thing", reason="gdpr", actor="cu")
    # then both name what the caller gave, and nothing else (no entity id)
    assert str(hidden.value) == str(missing.value).replace("No Such Thing", named)
    assert "e_" not in str(hidden.value)
    assert len(store.facts("Acme account")) == 2
