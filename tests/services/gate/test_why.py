"""Issue 4 acceptance 5, 6 and 7: merging never strengthens evidence; why and PROV-JSON; unknown facts."""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timezone

import pytest
from prov.model import ProvDerivation, ProvDocument, ProvGeneration, ProvInvalidation

from credo.api.cli import gate as cli_provenance
from credo.schema.errors import InvalidInput, NotFound
from tests.messages import messages

T0 = datetime(2025, 6, 1, 9, 0, tzinfo=timezone.utc)
QUOTE = "the  nightly   export runs at 02:00 UTC"


msg = messages(T0, "alice")


@pytest.fixture
def remembered(store, clock):
    clock.at("2025-06-01T10:00:00+00:00")
    store.set_write_policy({"semantic": {"visible": "logged"}})  # served at once: its corrections too (no consent)
    store.ingest_messages("w", [
        msg(0, "Note for the ops runbook: the  nightly   export runs at 02:00 UTC."),
        msg(1, "And keep the export bucket private."),
    ])
    return store.turn("w").remember("the nightly export runs at 02:00 UTC", "The nightly export runs at 02:00 UTC",
                                    subject="nightly export", predicate="runs_at", object="02:00 UTC")


# -- 5. merge -----------------------------------------------------------------------------------
@pytest.mark.parametrize("stated_first", [True, False])
def test_merging_unknown_with_stated_yields_unknown_whichever_order_and_keeps_every_source(
        store, remembered, stated_first):
    doc = store.add_source("document", "Runbook v3: export at 02:00 UTC daily.", title="Runbook v3", author="ops team")
    unknown = store.add_fact("nightly export", "runs_at", "02:00 UTC", valid_from="2025-01-01")
    store.cite(unknown.fact_id, doc.source_id, quote="export at 02:00 UTC daily")
    order = [remembered.fact_id, unknown.fact_id] if stated_first else [unknown.fact_id, remembered.fact_id]
    merged = store.merge_facts(order, statement="The nightly export runs daily at 02:00 UTC")
    assert merged.evidence == "unknown"
    tree = store.why(merged.fact_id)
    assert sorted((s.kind, s.quote) for s in tree.sources) == [
        ("document", "export at 02:00 UTC daily"), ("message", "the nightly export runs at 02:00 UTC")]
    assert sorted(l.fact_id for l in tree.supersedes) == sorted(order)
    for fact_id in order:  # the inputs are superseded, no longer believed
        assert all(v.known_to is not None for v in store.history(fact_id))


def test_merging_two_stated_facts_stays_stated_and_one_fact_is_refused(store, remembered):
    store.ingest_messages("w", [msg(2, "ok", origin="agent", role="assistant", author="agent"),
                                msg(3, "Yes: the export runs at 02:00 UTC, every night.")])
    other = store.turn("w").remember("the export runs at 02:00 UTC", "The export runs at 02:00 UTC",
                                     subject="nightly export", predicate="runs_at", object="02:00 UTC",
                                     valid_from="2025-06-01")
    merged = store.merge_facts([remembered.fact_id, other.fact_id], statement="The nightly export runs at 02:00 UTC")
    assert merged.evidence == "stated" and len(store.why(merged.fact_id).sources) == 2
    with pytest.raises(InvalidInput, match="at least two"):
        store.merge_facts([merged.fact_id], statement="x")


# -- 6. why ---------------------------------------------------------------------------------------
def test_why_shows_the_quote_verbatim_and_its_exact_message(store, remembered):
    tree = store.why(remembered.fact_id)
    assert (tree.evidence, tree.epistemic, tree.fact.version_id) == ("stated", "confirmed", remembered.version_id)
    [source] = tree.sources
    assert source.quote == "the nightly export runs at 02:00 UTC"
    assert (source.session_id, source.generation, source.index, source.author, source.origin, source.at) == (
        "w", 1, 0, "alice", "human_input", T0)
    original = "Note for the ops runbook: the  nightly   export runs at 02:00 UTC."
    assert original[source.span[0]:source.span[1]] == QUOTE
    text = tree.text()
    assert '"the nightly export runs at 02:00 UTC"' in text and "session w gen 1 message #0" in text
    assert json.loads(json.dumps(tree.json_dict()))["sources"][0]["index"] == 0


def test_why_before_a_correction_shows_the_old_version(store, clock, remembered):
    before = clock.at("2025-06-02T00:00:00+00:00")
    clock.at("2025-06-03T00:00:00+00:00")
    store.ingest_messages("w", [msg(2, "ok", origin="agent", role="assistant", author="agent"),
                                msg(3, "Correction: the export now runs at 03:00 UTC.")])
    newer = store.turn("w").remember("the export now runs at 03:00 UTC", "The nightly export runs at 03:00 UTC",
                                     replaces=remembered.fact_id, object="03:00 UTC")
    now_tree = store.why(remembered.fact_id)
    assert now_tree.fact.version_id == newer.version_id and [s.index for s in now_tree.sources] == [3]
    old_tree = store.why(remembered.fact_id, known_at=before)
    assert old_tree.fact.version_id == remembered.version_id and old_tree.fact.known_to is None
    assert [s.quote for s in old_tree.sources] == ["the nightly export runs at 02:00 UTC"]
    assert old_tree.superseded_by == []
    assert [l.version_id for l in now_tree.supersedes] == [remembered.version_id]


def test_why_shows_premises_as_believed_at_the_read(store, clock, remembered):
    premise = store.add_fact("export bucket", "visibility", "private", valid_from="2025-01-01")
    store.ingest_messages("w", [msg(2, "ok", origin="agent", role="assistant", author="agent"),
                                msg(3, "Rotate the export key weekly, since the bucket is private.")])
    fact = store.turn("w").remember("Rotate the export key weekly", "Rotate the export key weekly",
                                    depends_on=[premise.fact_id])
    before = clock.at("2025-06-05T00:00:00+00:00")
    clock.at("2025-06-06T00:00:00+00:00")
    store.retract_fact(premise.fact_id, reason="the bucket was public all along")
    [now] = store.why(fact.fact_id).justifications
    [then] = store.why(fact.fact_id, known_at=before).justifications
    assert (now.holds, now.premises[0].believed_now, now.premises[0].state) == (False, False, "not believed")
    assert (then.premises[0].state, then.premises[0].fact_id) == ("active", premise.fact_id)


def test_prov_json_loads_in_prov_and_satisfies_ordering(store, clock, remembered):
    clock.at("2025-06-03T00:00:00+00:00")
    store.ingest_messages("w", [msg(2, "ok", origin="agent", role="assistant", author="agent"),
                                msg(3, "Correction: the export now runs at 03:00 UTC.")])
    store.turn("w").remember("the export now runs at 03:00 UTC", "The nightly export runs at 03:00 UTC",
                             replaces=remembered.fact_id, object="03:00 UTC")
    data = store.export_prov(remembered.fact_id)
    doc = ProvDocument.deserialize(content=json.dumps(data), format="json")
    records = doc.get_records()
    generated = {str(r.formal_attributes[0][1]): r.get_attribute("prov:time") for r in records
                 if isinstance(r, ProvGeneration)}
    generated = {k: next(iter(v)) for k, v in generated.items() if v}
    invalidated = {str(r.formal_attributes[0][1]): next(iter(r.get_attribute("prov:time")))
                   for r in records if isinstance(r, ProvInvalidation)}
    derivations = [(str(r.formal_attributes[0][1]), str(r.formal_attributes[1][1])) for r in records
                   if isinstance(r, ProvDerivation)]
    versions = [k for k in generated if k.startswith("credo:v_")]
    assert len(versions) == 2 and len(invalidated) == 1
    for entity, when in invalidated.items():  # generation before invalidation
        assert generated[entity] <= when
    assert derivations
    for new, used in derivations:  # what is derived from is generated first
        assert generated[used] <= generated[new], (new, used)
    revisions = [r for r in records if isinstance(r, ProvDerivation)
                 and "prov:Revision" in {str(t) for t in r.get_attribute("prov:type")}]
    assert len(revisions) == 1
    assert any(str(a.identifier) == "credo:agent_alice" for a in doc.get_records() if a.get_type().localpart == "Agent")


def test_prov_export_as_known_at_a_past_point_is_the_document_of_that_time(store, clock, remembered):
    # given the PROV document of a fact as it stood, and a correction written after that point
    then_doc = store.export_prov(remembered.fact_id)
    before = clock.at("2025-06-02T00:00:00+00:00")
    clock.at("2025-06-03T00:00:00+00:00")
    store.ingest_messages("w", [msg(2, "ok", origin="agent", role="assistant", author="agent"),
                                msg(3, "Correction: the export now runs at 03:00 UTC.")])
    newer = store.turn("w").remember("the export now runs at 03:00 UTC", "The nightly export runs at 03:00 UTC",
                                     replaces=remembered.fact_id, object="03:00 UTC")
    # when it is exported as known before the correction
    past = store.export_prov(remembered.fact_id, known_at=before)
    # then it is exactly the document of that time: one version, not invalidated, the first message only
    assert past == then_doc
    assert [k for k in past["entity"] if k.startswith("credo:v_")] == [f"credo:{remembered.version_id}"]
    assert "wasInvalidatedBy" not in past
    # and now the document shows both versions and the later quote
    now_doc = store.export_prov(remembered.fact_id)
    assert f"credo:{newer.version_id}" in now_doc["entity"] and len(now_doc["wasInvalidatedBy"]) == 1
    with pytest.raises(NotFound):
        store.export_prov(remembered.fact_id, known_at="2025-05-01")


# -- 7. bad input -----------------------------------------------------------------------------------
def test_unknown_fact_is_not_found_for_why_export_and_merge(store):
    with pytest.raises(NotFound, match="fact not found: f_nope"):
        store.why("f_nope")
    with pytest.raises(NotFound, match="fact not found: f_nope"):
        store.export_prov("f_nope")
    with pytest.raises(NotFound, match="fact not found: f_nope"):
        store.merge_facts(["f_nope", "f_other"], statement="x")


def test_cli_why_prints_text_and_json(store, remembered, capsys):
    parser = argparse.ArgumentParser()
    cli_provenance.register(parser.add_subparsers())
    args = parser.parse_args(["why", remembered.fact_id, "--json"])
    args.store = store
    assert args.handler(args) == 0
    assert json.loads(capsys.readouterr().out)["sources"][0]["quote"] == "the nightly export runs at 02:00 UTC"
    args = parser.parse_args(["why", remembered.fact_id])
    args.store = store
    args.handler(args)
    assert "evidence: stated" in capsys.readouterr().out
