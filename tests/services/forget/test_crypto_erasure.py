"""Issue 12 item 4: crypto-erasure mode on the real Neo4j (docs/crypto-erasure.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from credo.cypher import Query
from credo.schema.errors import ConfigError
from credo.services.core.crypto import SealBroken, cipher_for
from credo.services.adapters.key_stores import FileKeyStore
from credo.store import Store
from tests.services.forget.test_forget import T0, HashEmbedder, says_code

# these tests exercise the gate and the reads, not consent: the tenant's stored write policy makes semantic writes
# logged, so remember serves at once (conftest.py `semantic_logged`; consent itself: tests/services/gate/test_consent.py)
pytestmark = pytest.mark.usefixtures("semantic_logged")

SECRET = "Alice keeps the vault code 7431 under her desk"
SAID = "honestly the vault code is 7431, it sits under my desk"

_RAW = Query("raw", "MATCH (n {tenant: $tenant}) RETURN n {.*, embedding: null} AS props", frozenset())
_RAW_EDGES = Query("raw", "MATCH (f:Fact {tenant: $tenant})-[r:SOURCED_FROM]->() RETURN r.quote AS quote", frozenset())
_FACT = Query("raw", "MATCH (f:Fact {tenant: $tenant, fact_id: $fact_id}) RETURN f {.*, embedding: null} AS props "
                     "ORDER BY f.known_from", frozenset())
_SOURCE = Query("raw", "MATCH (s:Source {tenant: $tenant, source_id: $source_id}) RETURN s {.*} AS props", frozenset())
_MOVE = Query("raw", "MATCH (a:Fact {version_id: $src}), (b:Fact {version_id: $dst}) SET b.statement = a.statement",
              frozenset())


@pytest.fixture
def keys(tmp_path) -> FileKeyStore:
    return FileKeyStore(tmp_path / "keys")


@pytest.fixture
def cstore(neo4j_db, tenant, clock, keys) -> Store:
    """A store with crypto-erasure on, keys in this test's own directory."""
    return Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False,
                 cipher=cipher_for("on", keys, tenant))


def _raw(store: Store, query: Query = _RAW, **params) -> list:
    return [r for r in store._db.query(query, tenant=store.tenant, **params)]


def _texts(rows: list) -> str:
    return repr(rows)


def _said(store: Store, text: str = SAID) -> tuple[str, str]:
    """A human message and a fact remembered from it; returns (source_id, fact_id)."""
    [msg] = store.ingest_messages("s1", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                                          "text": text, "at": T0}])
    # Alice speaks of her own desk: the quote carries the claim (carry_rules), the speaker being its subject
    fact = store.remember("s1", "the vault code is 7431, it sits under my desk", SECRET, subject="Alice",
                          predicate="keeps_code_of", object="Vault")
    return msg.source_id, fact.fact_id


def test_with_crypto_on_the_stored_properties_hold_no_plaintext_but_reads_why_and_search_do(cstore):
    # given a message and a fact remembered from it, in crypto mode
    source_id, fact_id = _said(cstore)
    doc = cstore.add_source("document", "Memo: the code was changed in May", title="Vault handling memo")
    cstore.cite(fact_id, doc.source_id)
    # then no stored node or edge property holds the statement, the quote, the message text or the document's words
    stored = _texts(_raw(cstore)) + _texts(_raw(cstore, _RAW_EDGES))
    assert not says_code(stored) and "under my desk" not in stored and "enc1:" in stored
    assert "changed in May" not in stored and "handling memo" not in stored
    # and reads, why and search give the plaintext back
    [fact] = cstore.history(fact_id)
    assert [f.statement for f in cstore.facts("Alice").undated] == [SECRET]
    assert fact.statement == SECRET and "7431" in (fact.quote or "")
    why = cstore.why(fact_id)
    assert "the vault code is 7431" in repr(why) and "Vault handling memo" in repr(why)
    found = cstore.search("where is the vault code kept")
    assert any(h.fact is not None and h.fact.statement == SECRET for h in found.hits), found


def test_a_backup_of_the_raw_properties_decrypts_before_forget_and_not_after_while_another_subject_stays_readable(
        cstore, keys, tenant):
    # given Alice's fact (from a message) and Bob's fact, and a "backup": the raw properties copied before forget
    source_id, fact_id = _said(cstore)
    bob = cstore.add_fact("Bob", "lives_in", "Lisbon", valid_from="2024-01-01", statement="Bob lives in Lisbon")
    backup_fact = _raw(cstore, _FACT, fact_id=fact_id)[0]["props"]
    backup_source = _raw(cstore, _SOURCE, source_id=source_id)[0]["props"]
    reader = cipher_for("on", keys, tenant)  # a restore job holding the key store
    assert reader.open(tenant, backup_fact["statement"]) == SECRET
    assert "7431" in reader.open(tenant, backup_source["text"])
    # when Alice (the data subject) and the message are forgotten
    report = cstore.forget_subject("Alice", reason="erasure request", actor="dpo").report
    message = cstore.forget(source_id, reason="erasure request", actor="dpo").report
    # then the backup copies can no longer be decrypted (their keys are gone) and the reports say so
    fresh = cipher_for("on", keys, tenant)
    assert fresh.open(tenant, backup_fact["statement"]) is None
    assert fresh.open(tenant, backup_source["text"]) is None
    assert report.crypto_erased is True and "destroyed" in report.crypto_reason, report.crypto_reason
    assert message.crypto_erased is True, message.crypto_reason
    assert cstore.verify_forgotten(source_id).crypto_erased is True
    # and another subject's content is still readable, in the store and in the backup
    assert [f.statement for f in cstore.facts("Bob").dated] == ["Bob lives in Lisbon"]
    bob_raw = _raw(cstore, _FACT, fact_id=bob.fact_id)[0]["props"]
    assert fresh.open(tenant, bob_raw["statement"]) == "Bob lives in Lisbon"


def test_forgetting_one_fact_of_a_subject_with_other_remembered_facts_keeps_the_key_and_says_why(cstore, keys, tenant):
    # given two facts about Carol
    first = cstore.add_fact("Carol", "badge", "B-1", valid_from="2024-01-01", statement="Carol's badge number is 9911")
    cstore.add_fact("Carol", "lives_in", "Oslo", valid_from="2024-01-01", statement="Carol lives in Oslo")
    backup = _raw(cstore, _FACT, fact_id=first.fact_id)[0]["props"]
    # when one of them is forgotten
    report = cstore.forget(first.fact_id, reason="asked", actor="dpo").report
    # then the store holds nothing of it, but the key still protects the other fact, so a backup stays readable and
    # the report says it is not crypto-erased and why
    assert report.complete, report.residue
    assert report.crypto_erased is False and "still protects 1 remembered item" in report.crypto_reason
    assert cipher_for("on", keys, tenant).open(tenant, backup["statement"]) == "Carol's badge number is 9911"
    # when the last fact about Carol goes too, the key goes with it
    [other] = cstore.facts("Carol").dated
    last = cstore.forget(other.fact_id, reason="asked", actor="dpo").report
    assert last.crypto_erased is True, last.crypto_reason
    assert cipher_for("on", keys, tenant).open(tenant, backup["statement"]) is None


def test_a_ciphertext_moved_to_another_node_is_refused(cstore):
    # given two facts about the same subject, sealed under one key
    a = cstore.add_fact("Dan", "likes", "Tea", valid_from="2024-01-01", statement="Dan likes tea")
    b = cstore.add_fact("Dan", "likes", "Jazz", valid_from="2024-01-01", statement="Dan likes jazz")
    # when a's sealed statement is copied onto b with raw Cypher
    cstore._db.query(_MOVE, write=True, src=a.version_id, dst=b.version_id)
    # then reading b refuses the foreign ciphertext instead of showing a's words as b's
    with pytest.raises(SealBroken):
        cstore.history(b.fact_id)
    assert [f.statement for f in cstore.history(a.fact_id)] == ["Dan likes tea"]


def test_a_tenant_with_sealed_content_cannot_be_opened_with_crypto_off_without_saying_so(cstore, keys, tenant):
    # given a tenant with sealed content
    cstore.add_fact("Eve", "likes", "Chess", valid_from="2024-01-01", statement="Eve likes chess")
    # then turning the mode off for it is refused, and read-only (stop sealing, keep reading) must be said
    with pytest.raises(ConfigError, match="crypto-sealed"):
        cipher_for("off", keys, tenant)
    reader = cipher_for("read-only", keys, tenant)
    assert reader is not None and not reader.sealing
    assert cipher_for("off", keys, "another-tenant") is None  # a tenant without keys is unaffected
    # and a server handle with the mode off refuses to serve that tenant rather than write plaintext beside it
    plain = Store(cstore._db, tenant="another-tenant", embedder=None, _owns_db=False, keys=keys)
    with pytest.raises(ConfigError, match="crypto-sealed"):
        plain.for_tenant(tenant)


def test_literal_values_are_sealed_yet_filters_and_the_conflict_rule_still_compare_them(cstore):
    from credo import text

    # given a literal value in crypto mode
    pin = cstore.add_fact("Frank", "door_pin", text("4417-22"), valid_from="2024-01-01")
    # then no stored property holds it
    assert "4417-22" not in _texts(_raw(cstore, _FACT, fact_id=pin.fact_id))
    # and a read filtered by the value finds it, another value does not
    assert [f.fact_id for f in cstore.facts("Frank", "door_pin", text("4417-22")).dated] == [pin.fact_id]
    assert list(cstore.facts("Frank", "door_pin", text("0000-00")).dated) == []
    # and the conflict rule still tells the same value (no conflict) from a different one (a conflict)
    same = cstore.add_fact("Frank", "door_pin", text("4417-22"), valid_from="2024-01-01")
    other = cstore.add_fact("Frank", "door_pin", text("9999-11"), valid_from="2024-01-01")
    assert same.state != "conflicted" and other.state == "conflicted"
    assert len(cstore.conflicts()) == 1


def test_a_ciphertext_whose_header_is_rewritten_to_claim_another_node_fails_its_integrity_check(keys, tenant):
    # given a statement sealed for node v_a
    cipher = cipher_for("on", keys, tenant)
    sealed, _key = cipher.seal(tenant, "entity:e_1", "v_a", "statement", "Dan likes tea")
    # when its clear header is rewritten to name v_b (so the node check would pass)
    import base64
    import json

    head, _, body = sealed[len("enc1:"):].partition(".")
    header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    forged_head = base64.urlsafe_b64encode(json.dumps({**header, "n": "v_b"}, separators=(",", ":"),
                                                      sort_keys=True).encode()).decode().rstrip("=")
    # then opening it as v_b's is refused (the header is associated data); another tenant has no key to open it
    with pytest.raises(SealBroken):
        cipher.open(tenant, f"enc1:{forged_head}.{body}", node="v_b")
    assert cipher.open(tenant, sealed, node="v_a") == "Dan likes tea"
    assert cipher.open(tenant + "x", sealed) is None


def test_the_file_key_store_writes_0600_keys_and_destroys_them_for_good(keys, tenant):
    # given a key for a subject
    key_id = keys.create(tenant, "entity:e_9")
    [path] = list(keys.root.rglob("*.key"))
    # then it is a 0600 file outside the graph, found again by subject and listed for the tenant
    assert path.stat().st_mode & 0o777 == 0o600
    assert keys.current(tenant, "entity:e_9") == key_id and keys.list(tenant) == [key_id]
    # when it is destroyed, it is gone, and the subject's next key has a new id
    assert keys.destroy(tenant, key_id) is True
    assert keys.get(tenant, key_id) is None and not path.exists() and keys.current(tenant, "entity:e_9") is None
    assert keys.create(tenant, "entity:e_9") != key_id


_EMBEDDED = Query("raw", "MATCH (f:Fact {tenant: $tenant, fact_id: $fact_id}) WHERE f.known_to IS NULL "
                         "RETURN f.embedding IS NOT NULL AS embedded", frozenset())


def test_a_new_version_with_an_unchanged_statement_keeps_its_embedding_in_crypto_mode(cstore):
    # given a fact with an embedding, in crypto mode (sealed statements of two versions never compare equal)
    f = cstore.add_fact("Gina", "works_at", "Initech", valid_from="2024-01-01", statement="Gina works at Initech")
    # when a new version keeps the statement (its valid time ends)
    cstore.end_fact(f.fact_id, at="2025-01-01")
    # then the current version still has its vector, so the vector path still finds it
    assert [r["embedded"] for r in _raw(cstore, _EMBEDDED, fact_id=f.fact_id)] == [True]


def test_after_a_forget_in_crypto_mode_no_node_holds_the_plaintext_not_even_the_probe_kept_until_purge(cstore):
    # given a fact remembered from a message, in crypto mode
    source_id, fact_id = _said(cstore)
    # when it is forgotten (not yet purged: the residue probe is kept until purge)
    report = cstore.forget(fact_id, reason="asked to", actor="maria").report
    # then no stored node, the probe's included, holds the statement or the quote in plaintext
    raw = Query("raw", "MATCH (n {tenant: $tenant}) RETURN n {.*, embedding: null, vectors: null} AS props",
                frozenset())
    stored = _texts(_raw(cstore, raw)) + _texts(_raw(cstore, _RAW_EDGES))
    assert not says_code(stored) and "under my desk" not in stored
    assert report.complete, report
