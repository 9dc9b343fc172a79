"""Issue 27: forgetting reaches verdicts. A verifier's reason may quote the statement it judged (an LLM's does), and a
review item points at the version a person must judge: when the fact is forgotten (one id, or the whole tenant), its
versions' :Verification nodes and review items go with its content (the ledger keeps its content-free `verify`
event), and `verify_forgotten` reports a verdict left on a forgotten version as residue."""

from __future__ import annotations

from dataclasses import dataclass

from credo.cypher import Query
from credo.schema.verify import Excerpt, Verdict
from credo.services.verify.review import ReviewQueue
from credo.store import Store
from tests.services.forget.test_forget_residue import QUOTE, WORDS, diagnosis, kstore, keys, raw_scan  # noqa: F401


@dataclass(frozen=True)
class QuotingVerifier:
    """A scripted verifier whose reason quotes the statement verbatim, as an LLM's may."""

    name: str = "scripted"

    def verify(self, statement: str, excerpt: Excerpt) -> Verdict:
        """Supported, quoting the statement in its reason."""
        return Verdict(verdict="supported", reason=f"the message says exactly '{statement}'")


def judged_by(store: Store, verifier) -> Store:
    return Store(store._db, tenant=store.tenant, embedder=None, _clock=store._ctx.clock, _owns_db=False,
                 verifier=verifier, actor="carol", cipher=store._ctx.cipher, keys=store._keys)


_VERDICTS = Query("raw", "MATCH (n) WHERE n.tenant = $tenant AND (n:Verification OR n:ReviewItem) "
                         "RETURN labels(n)[0] AS label, n.version_id AS version_id", frozenset())
_PLANT = Query("raw", "MATCH (f:Fact {tenant: $tenant, fact_id: $fact_id}) "
                      "CREATE (f)-[:VERIFIED_BY]->(:Verification {tenant: $tenant, verification_id: randomUUID(), "
                      "version_id: f.version_id, verdict: 'supported', reason: $text})", frozenset())


def verified_and_queued(store: Store):
    """The scenario's fact, judged by the quoting verifier and queued for a person: (fact, verdict)."""
    _message, fact = diagnosis(store)
    outcome = judged_by(store, QuotingVerifier()).verify(fact.fact_id)
    assert QUOTE in outcome.verified_by.reason  # the reason holds the statement
    assert judged_by(store, ReviewQueue()).verify(fact.fact_id).status == "queued"
    assert {r["label"] for r in store._db.query(_VERDICTS, tenant=store.tenant)} == {"Verification", "ReviewItem"}
    return fact, outcome.verified_by


def test_a_forgotten_fact_takes_its_verdicts_reasons_and_review_items_with_it(kstore):
    # given a fact whose verdict's reason quotes its statement, and a review item on it
    fact, verdict = verified_and_queued(kstore)
    assert raw_scan(kstore)
    # when the fact is forgotten
    report = kstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report
    # then the report is complete, no verdict or review item is left on its versions, and a raw scan of every
    # node's properties finds none of its words
    assert report.complete, report.residue
    assert kstore._db.query(_VERDICTS, tenant=kstore.tenant) == []
    assert [w for w in raw_scan(kstore) if "Source" not in w] == []  # the message is not forgotten: its text stays
    # the ledger keeps its content-free verify event
    [event] = kstore.audit(operation="verify").items
    assert event.detail["verification_id"] == verdict.verification_id and event.detail["verdict"] == "supported"
    assert kstore.review_queue() == []


def test_a_verdict_left_on_a_forgotten_version_is_reported_as_residue(kstore):
    # given the fact forgotten (complete)
    fact, _verdict = verified_and_queued(kstore)
    assert kstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report.complete
    # when a verdict quoting the statement is found on its version afterwards (restored from an old copy)
    kstore._db.query(_PLANT, write=True, tenant=kstore.tenant, fact_id=fact.fact_id, text=f"it says '{QUOTE}'")
    # then verify_forgotten is not complete and names the verdict
    report = kstore.verify_forgotten(fact.fact_id)
    assert not report.complete and "verification" in {r.place for r in report.residue}, report.residue


def test_forgetting_the_tenant_takes_every_verdict_and_review_item(kstore):
    # given a verified and queued fact
    verified_and_queued(kstore)
    # when the whole tenant is forgotten
    job = kstore.forget_tenant(reason="tenant closed", actor="ops")
    # then the job's report is complete and no word of the statement is left in any node
    assert job.state == "complete" and job.report.complete, job.report.residue
    assert kstore._db.query(_VERDICTS, tenant=kstore.tenant) == []
    assert raw_scan(kstore, WORDS) == []


@dataclass(frozen=True)
class ComparingVerifier:
    """A scripted verifier whose reason quotes another statement (as an LLM comparing claims may)."""

    quoted: str
    name: str = "scripted"

    def verify(self, statement: str, excerpt: Excerpt) -> Verdict:
        """Unsupported, quoting the other statement in its reason."""
        return Verdict(verdict="unsupported", reason=f"it contradicts '{self.quoted}'")


def test_a_verdict_on_a_remembered_fact_quoting_the_forgotten_statement_loses_its_reason(kstore):
    # given the scenario's fact, and a verdict on another (remembered) fact whose reason quotes the forgotten statement
    _message, fact = diagnosis(kstore)
    other = kstore.add_fact("Ward 7", "houses", "Maria Quokkaberry", valid_from="2024-01-01")
    judged_by(kstore, ComparingVerifier(QUOTE)).verify(other.fact_id)
    # when the fact is forgotten
    report = kstore.forget(fact.fact_id, reason="erasure request", actor="dpo").report
    # then the report is complete, and the other fact's verdict stays with its reason replaced (a free text naming
    # the forgotten content); no Verification holds the statement
    assert report.complete, report.residue
    [kept] = [r for r in kstore._db.query(_VERDICTS, tenant=kstore.tenant)]
    assert kept["version_id"] == other.version_id
    assert not [w for w in raw_scan(kstore, ("diabetesvex",)) if w.startswith("Verification")]
    # and a reason quoting it again afterwards is residue, found through the free-text index
    kstore._db.query(_PLANT, write=True, tenant=kstore.tenant, fact_id=other.fact_id, text=f"it says '{QUOTE}'")
    again = kstore.verify_forgotten(fact.fact_id)
    assert not again.complete and any(r.ref.startswith("Verification:") for r in again.residue), again.residue
