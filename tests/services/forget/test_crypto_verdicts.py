"""Verifiers' reasons in crypto-erasure mode (issue 27, docs/crypto-erasure.md): the reason a verifier records on a
:Verification is sealed under the key of the judged fact's subject, like its statement, so a raw scan (an old backup,
a transaction log) never meets its words; every surface that shows it (why, the context package, the review queue)
reads it opened; once the subject's key is destroyed an old copy reads as the unreadable marker; and forgetting
still finds a sealed reason on a remembered fact that quotes the forgotten content (opened in Python, as receipts'
questions are)."""

from __future__ import annotations

from dataclasses import dataclass

from credo.cypher import Query
from credo.schema.verify import Excerpt, Verdict
from credo.services.core.crypto import ERASED, cipher_for
from credo.services.verify.review import ReviewQueue
from credo.store import Store
from tests.services.forget.test_crypto_erasure import cstore, keys  # noqa: F401
from tests.services.forget.test_forget_residue import raw_scan

WORDS = ("zorblaxian", "quillifrond")  # words only the verifier's reason holds
REASON = "the message hedges: Zorblaxian tone, Quillifrond caveat"

_VERDICT = Query("raw", "MATCH (v:Verification {tenant: $tenant}) RETURN v {.*} AS props", frozenset())


@dataclass(frozen=True)
class Explaining:
    """A scripted verifier with a reason of its own words."""

    reason: str = REASON
    name: str = "scripted"

    def verify(self, statement: str, excerpt: Excerpt) -> Verdict:
        """Overreach, with the reason."""
        return Verdict(verdict="overreach", overreach_kind="hedge_dropped", reason=self.reason)


def judged(store: Store, verifier) -> Store:
    return Store(store._db, tenant=store.tenant, embedder=None, _clock=store._ctx.clock, _owns_db=False,
                 verifier=verifier, actor="carol", cipher=store._ctx.cipher, keys=store._keys)


def test_a_verifiers_reason_is_sealed_read_opened_and_gone_with_the_fact(cstore, keys, tenant):
    # given a fact judged by a verifier whose reason holds words of its own, in crypto mode
    fact = cstore.add_fact("Ward 9", "houses", "Pat Example", valid_from="2024-01-01")
    outcome = judged(cstore, Explaining()).verify(fact.fact_id)
    assert outcome.verified_by.reason == REASON
    # then the stored reason is ciphertext under the subject's key, and no raw node or edge holds its words
    [stored] = [r["props"] for r in cstore._db.query(_VERDICT, tenant=tenant)]
    assert stored["reason"].startswith("enc1:")
    assert raw_scan(cstore, WORDS) == []
    backup = stored["reason"]
    # and every surface that shows it reads it opened: why, the context package
    assert cstore.why(fact.fact_id).verified_by.reason == REASON
    [item] = [i for i in cstore.context("Ward 9").current if i.fact.fact_id == fact.fact_id]
    assert item.verified_by.reason == REASON
    # when the fact (the subject's only one) is forgotten
    done = cstore.forget(fact.fact_id, reason="erasure request", actor="dpo")
    # then nothing of the reason is left in the store, and its old copy cannot be opened any more
    assert done.report.complete and done.report.crypto_erased is True, done.report.crypto_reason
    assert raw_scan(cstore, WORDS) == []
    assert cipher_for("on", keys, tenant).open(tenant, backup) is None
    assert "verifiers' reasons" not in done.report.crypto_reason.split("not covered")[-1]


def test_a_sealed_reason_reads_as_the_unreadable_marker_once_its_key_is_destroyed(cstore, keys, tenant):
    # given a judged fact, its verdict's reason sealed
    fact = cstore.add_fact("Ward 9", "houses", "Pat Example", valid_from="2024-01-01")
    judged(cstore, Explaining()).verify(fact.fact_id)
    # when the subject's key is destroyed out of band (an old backup restored without the key store)
    [key_id] = [k for k in keys.list(tenant) if k.startswith(f"entity:{fact.subject_id}~")]
    cstore._ctx.cipher.destroy(tenant, key_id)
    # then the reason reads as the marker, never as ciphertext
    assert cstore.why(fact.fact_id).verified_by.reason == ERASED


def test_the_review_queue_shows_a_decided_reason_opened(cstore, tenant):
    # given a fact queued for a person, who rejects it with a reason
    fact = cstore.add_fact("Ward 9", "houses", "Pat Example", valid_from="2024-01-01")
    queued = judged(cstore, ReviewQueue()).verify(fact.fact_id)
    decided = judged(cstore, ReviewQueue()).review(queued.review_item.item_id, "reject", reason=REASON)
    # then the verdict is sealed and reads opened
    [stored] = [r["props"] for r in cstore._db.query(_VERDICT, tenant=tenant)]
    assert stored["reason"].startswith("enc1:") and raw_scan(cstore, WORDS) == []
    assert decided.verified_by.reason == REASON
    assert cstore.why(fact.fact_id).verified_by.reason == REASON


def test_forgetting_finds_a_sealed_reason_on_another_fact_quoting_the_forgotten_statement(cstore, tenant):
    # given a fact, and a verdict on another fact of another subject whose sealed reason quotes the first's statement
    secret = cstore.add_fact("Pat Zorblaxian", "diagnosed_with", "Quillifrond syndrome",
                             statement="Pat Zorblaxian was diagnosed with Quillifrond syndrome")
    other = cstore.add_fact("Ward 9", "houses", "Pat Example", valid_from="2024-01-01")
    judged(cstore, Explaining(reason=f"it contradicts '{secret.statement}'")).verify(other.fact_id)
    # when the first fact is forgotten
    done = cstore.forget(secret.fact_id, reason="erasure request", actor="dpo")
    # then the other verdict stays, its reason replaced, and the report is complete
    assert done.report.complete, done.report.residue
    reason = cstore.why(other.fact_id).verified_by.reason
    assert "Zorblaxian" not in reason and reason.startswith("[removed by forget")
    # and a sealed reason quoting it again afterwards is residue the report names
    judged(cstore, Explaining(reason=f"it contradicts '{secret.statement}'")).verify(other.fact_id)
    again = cstore.verify_forgotten(secret.fact_id)
    assert not again.complete and any(r.ref.startswith("Verification:") for r in again.residue), again.residue
