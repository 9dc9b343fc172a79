"""What the conflict rule, relabelling, the ledger, purged tombstones, read receipts and forget refusals tell a
caller about content above its clearance (the review of issue 24's clearance): a version names (`bounded_by`) only
a version every reader of it may see; a conflicted write against a hidden value is open without saying what it
contradicts; a version relabelled above a reader says only that it was superseded; the audit ledger is read with
clearance `all`; a purged id's tombstone answers only a caller who could have seen it; a receipt's question is
withheld from a reader below its asker; a forget by name answers a hidden entity as a missing name."""

from __future__ import annotations

import json

import pytest

from credo.schema.errors import Forbidden, NotFound
from credo.services.recall.context_rules import CONFLICTED_UNSEEN

BELOW_SECRET = ["public", "internal", "confidential"]


def dumped(*answers) -> str:
    """Answers as one JSON text (models and lists of models)."""
    def plain(a):
        if isinstance(a, list):
            return [plain(x) for x in a]
        return a.model_dump(mode="json") if hasattr(a, "model_dump") else a
    return json.dumps([plain(a) for a in answers], default=str)


# -- 3. the conflict rule names nothing above the reader's clearance -----------------------------------------
@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_a_write_bounded_by_a_hidden_value_names_it_nowhere(store, clearance):
    # given a secret value established from June
    hidden = store.add_fact("Acme", "ceo", "Bob", valid_from="2024-06-01", sensitivity="secret")
    caller = store.for_tenant(store.tenant, clearance=clearance)
    # when the caller writes an earlier open-ended value
    mine = caller.add_fact("Acme", "ceo", "Alice", valid_from="2024-01-01", sensitivity="public")
    # then it is bounded where the hidden value starts (the conflict rule's one bit), naming no version
    assert mine.valid_to is not None and mine.valid_to.isoformat().startswith("2024-06-01")
    assert mine.bounded_by is None
    reads = dumped(mine, caller.facts("Acme", "ceo"), caller.history(mine.fact_id), caller.why(mine.fact_id),
                   caller.context("Acme", valid_at="2024-07-01"), caller.chain("Acme", "ceo"),
                   caller.entity_versions("Acme"), caller.export_prov(mine.fact_id))
    assert hidden.version_id not in reads and hidden.fact_id not in reads and "Bob" not in reads
    # and a cleared reader reads the same version (a version never names a more sensitive one)
    assert [v.bounded_by for v in store.history(mine.fact_id)] == [None]


def test_a_bound_by_a_value_its_readers_may_see_is_named_as_before(store):
    public = store.add_fact("Acme", "ceo", "Bob", valid_from="2024-06-01", sensitivity="public")
    internal = store.add_fact("Acme", "ceo", "Alice", valid_from="2024-01-01", sensitivity="internal")
    assert internal.bounded_by == public.version_id
    # relabelled for fewer readers, it still names it
    raised = store.correct_fact(internal.fact_id, sensitivity="secret")
    assert raised.bounded_by == public.version_id


def test_a_bounded_version_relabelled_below_its_bound_no_longer_names_it(store):
    bound = store.add_fact("Acme", "ceo", "Bob", valid_from="2024-06-01", sensitivity="secret")
    secret = store.add_fact("Acme", "ceo", "Alice", valid_from="2024-01-01", sensitivity="secret")
    assert secret.bounded_by == bound.version_id
    public = store.correct_fact(secret.fact_id, sensitivity="public")
    assert public.bounded_by is None and public.valid_to == secret.valid_to
    assert bound.version_id not in dumped(store.for_tenant(store.tenant, clearance="public").history(
        secret.fact_id))


@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_a_write_kept_conflicted_by_a_hidden_value_is_open_without_what_it_contradicts(store, clearance):
    store.add_fact("Acme", "ceo", "Bob", valid_from="2024-01-01", sensitivity="secret")
    caller = store.for_tenant(store.tenant, clearance=clearance)
    mine = caller.add_fact("Acme", "ceo", "Carol", valid_from="2024-03-01", sensitivity="public")
    assert mine.state == "conflicted"  # the one bit a write learns
    package = caller.context("Acme", valid_at="2024-04-01")
    [item] = [i for i in package.open if i.fact.fact_id == mine.fact_id]
    assert item.cause == CONFLICTED_UNSEEN
    assert "contradicts" not in package.markdown and "established" not in package.markdown
    assert caller.conflicts() == []
    # while a key cleared for both sides is told what it contradicts, and may resolve it
    [full] = [i for i in store.context("Acme", valid_at="2024-04-01").open if i.fact.fact_id == mine.fact_id]
    assert "contradicts the established value" in full.cause and len(store.conflicts()) == 1


@pytest.mark.parametrize("clearance", BELOW_SECRET)
def test_a_version_relabelled_above_its_reader_says_only_that_it_was_superseded(store, clearance):
    first = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public")
    store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="secret")
    [old] = store.for_tenant(store.tenant, clearance=clearance).history(first.fact_id)
    assert old.end_reason == "superseded by a restatement"
    assert "relabel" not in dumped(store.for_tenant(store.tenant, clearance=clearance).history(first.fact_id))


def test_a_version_relabelled_for_the_same_readers_says_so(store):
    first = store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="secret")
    store.add_fact("Door", "opens", "Friday", valid_from="2024-01-01", sensitivity="public")
    assert store.history(first.fact_id)[0].end_reason == "relabelled by a restatement"


# -- 5. the audit ledger is read with clearance all ---------------------------------------------------------
@pytest.mark.parametrize("clearance", ["public", "internal", "confidential", "secret"])
def test_reading_the_audit_ledger_needs_clearance_for_every_label(store, clearance):
    secret = store.add_fact("Vault", "guard", "Quentin", valid_from="2024-01-01", sensitivity="secret")
    store.retract_fact(secret.fact_id, reason="SECRETREASON Vault Guard embezzled")
    caller = store.for_tenant(store.tenant, clearance=clearance)
    for call in (lambda: caller.audit(), lambda: caller.audit(id=secret.fact_id),
                 lambda: caller.audit(operation="retract_fact")):
        with pytest.raises(Forbidden) as refused:
            call()
        assert refused.value.field == "clearance" and "SECRETREASON" not in str(refused.value)
    # the chain's check answers counts and event ids only: it stays an admin's read at any clearance
    report = caller.verify_ledger()
    assert report.ok and report.events == len(store.audit().items)
    assert "SECRETREASON" in dumped(store.audit(id=secret.fact_id))


# -- 6. a purged id's tombstone answers only a caller who could have seen it ------------------------------------
MISSING_FACT = "f_00000000000000000000"


@pytest.mark.parametrize(("label", "clearance", "sees"), [
    ("secret", "public", False), ("secret", "confidential", False), ("secret", "secret", True),
    (None, "public", False), (None, "internal", True), ("public", "public", True)])
def test_a_purged_tombstone_answers_only_a_caller_cleared_for_what_it_held(store, label, clearance, sees):
    fact = store.add_fact("Vault", "guard", "Quentin", valid_from="2024-01-01", sensitivity=label)
    store.forget(fact.fact_id, reason="SECRETFORGETREASON", actor="dpo")
    store.for_tenant(store.tenant).purge(fact.fact_id)  # another handle: no capture of its own
    caller = store.for_tenant(store.tenant, clearance=clearance)
    if sees:
        report = caller.verify_forgotten(fact.fact_id)
        assert report.purged_at is not None and report.tombstone.reason == "SECRETFORGETREASON"
    else:
        with pytest.raises(NotFound) as hidden:
            caller.verify_forgotten(fact.fact_id)
        with pytest.raises(NotFound) as missing:
            caller.verify_forgotten(MISSING_FACT)
        assert str(hidden.value).replace(fact.fact_id, MISSING_FACT) == str(missing.value)
        with pytest.raises(NotFound):
            caller.purge(fact.fact_id)  # purging it again answers its report: not to this caller
    # the purge recorded the label of what it deleted
    [event] = [e for e in store.audit(operation="purge").items if e.subject_id == fact.fact_id]
    assert event.detail["sensitivity"] == (label or "internal")


# -- 7. a read receipt's question is withheld from a reader below its asker -----------------------------------
@pytest.mark.parametrize(("asker", "reader", "shown"), [
    ("all", "public", False), ("secret", "confidential", False), ("secret", "secret", True),
    ("internal", "internal", True), ("public", "public", True), ("all", "all", True)])
def test_a_receipts_question_is_shown_only_to_a_reader_cleared_for_its_asker(store, asker, reader, shown):
    globex = store.add_fact("Globex", "hq_in", "Springfield", valid_from="2024-01-01", sensitivity="public")
    store.add_fact("Quentin Secretman", "works_at", "Globex", valid_from="2024-01-01", sensitivity="secret")
    question = "Globex and Quentin Secretman"
    store.for_tenant(store.tenant, clearance=asker).context(question, task="leaktask")
    caller = store.for_tenant(store.tenant, clearance=reader)
    receipts = caller.served_to("leaktask") + caller.tasks_served(globex.fact_id)
    assert len(receipts) == 2 and all(globex.version_id in {v.version_id for v in r.versions} for r in receipts)
    assert [(r.query, r.query_withheld) for r in receipts] == [(question, False) if shown else (None, True)] * 2
    if not shown:
        assert "Secretman" not in dumped(receipts)
