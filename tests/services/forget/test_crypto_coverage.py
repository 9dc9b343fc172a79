"""What crypto-erasure covers is what the raw scan shows: read receipts' questions are sealed (under the tenant's
receipts key), reasons are free text stored in clear and said so, literal values are sealed and never called
plaintext, and `crypto_erased` is true only when every copy the forget touched is sealed under a destroyed key or
gone from the store."""

from __future__ import annotations

import pytest

from credo.services.core.crypto import cipher_for
from credo.services.adapters.key_stores import FileKeyStore
from credo.store import Store
from tests.services.forget.test_forget import HashEmbedder
from tests.services.forget.test_forget_residue import raw_scan


@pytest.fixture
def cstore(neo4j_db, tenant, clock, tmp_path) -> Store:
    keys = FileKeyStore(tmp_path / "keys")
    return Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False,
                 cipher=cipher_for("on", keys, tenant), keys=keys)


def _zeta(store: Store):
    return store.add_fact("Patient Zeta", "diagnosed_with", "Quorbalitis", valid_from="2024-01-01",
                          statement="Patient Zeta was diagnosed with Quorbalitis")


def test_a_read_receipt_question_is_sealed_on_disk_and_served_in_clear(cstore):
    # given a fact, and a read for a task whose question names words of no stored content
    _zeta(cstore)
    cstore.context("Has Zeta seen the Vexmoorian specialist?", task="intake")
    # then the raw graph never holds the question in clear, while the task's receipts show it to the caller
    assert raw_scan(cstore, ("vexmoorian",)) == []
    [receipt] = cstore.served_to("intake")
    assert receipt.query == "Has Zeta seen the Vexmoorian specialist?"


def test_a_sealed_question_holding_forgotten_words_loses_them_and_one_left_is_residue(cstore):
    # given a fact, a read that did not serve it but whose question names its object, and one that served it
    fact = _zeta(cstore)
    other = cstore.add_fact("Clinic North", "located_in", "Harbour Road", valid_from="2024-01-01")
    cstore.search("Quorbalitis treatment at Clinic North", task="t-words", kinds=["entity"])
    cstore.context("Patient Zeta", task="t-served")
    # when the fact is forgotten (its object entity, named by nothing else, goes with it)
    report = cstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report
    # then both receipts lost their question, sealed or not, and the report is complete
    assert report.complete, report.residue
    assert [r.query for r in cstore.served_to("t-words")] == [None]
    assert [r.query for r in cstore.served_to("t-served")] == [None]
    assert other.fact_id
    # and a question naming it asked afterwards, sealed like every question, is a copy the report names
    cstore.context("Is Quorbalitis contagious?", task="t-later")
    again = cstore.verify_forgotten(fact.fact_id)
    assert not again.complete and "read receipt" in {r.place for r in again.residue}, again.residue
    assert again.crypto_erased is False and "residue" in again.crypto_reason


def test_crypto_reason_says_what_is_not_sealed_and_never_calls_sealed_literal_values_plaintext(cstore):
    # given a fact about a subject with a literal value, retracted with a reason, in crypto mode
    from credo import text

    fact = cstore.add_fact("Patient Zeta", "blood_type", text("Xerolith negative"), valid_from="2024-01-01")
    cstore.retract_fact(fact.fact_id, reason="Xerolith was a typo")
    # the literal value is sealed on disk, the reason is not
    assert not any(p.startswith("Fact") and p.endswith("object_value") for p in raw_scan(cstore, ("xerolith",)))
    assert "Fact.end_reason" in raw_scan(cstore, ("xerolith",))
    # when the subject's only fact is forgotten (its key destroyed)
    report = cstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report
    # then it is crypto-erased, and the reason names what is in plaintext (reasons among it), not literal values
    assert report.complete and report.crypto_erased is True, report.crypto_reason
    reason = report.crypto_reason.lower()
    assert "reasons" in reason and "receipts" in reason
    assert "literal" not in reason.split("not covered")[1]
