"""Issue 28 item 3: crypto-erasure's promise about backups (docs/crypto-erasure.md), on a private local Neo4j.

With CREDO_CRYPTO=on the words people said are sealed under their subject's key, and the keys live in CREDO_KEY_DIR
(by default in the instance directory), never in a backup. So a backup taken before a subject was forgotten, restored
after its key was destroyed, holds that subject's text only as ciphertext nobody can open, while every other
subject's text reads as before.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from credo.cypher import Query
from credo.graph.core.db import Database
from credo.ops.backup import backup, restore
from credo.services.adapters.key_stores import FileKeyStore
from credo.services.core.crypto import ERASED, cipher_for
from credo.store import Store
from tests.conftest import Clock

TENANT = "t_backup_crypto"
ALICE = "Alice keeps the vault code 7431 under her desk"
ALICE_WORDS = re.compile(r"7431|vault|desk", re.IGNORECASE)
BOB = "Bob lives in Lisbon near the old tram depot"
_RAW_NODES = Query("raw", "MATCH (n) RETURN n {.*, embedding: null} AS props", frozenset())
_RAW_EDGES = Query("raw", "MATCH ()-[r]->() RETURN properties(r) AS props", frozenset())


class Instance:
    """The private server (tests/ops/conftest.py) in crypto-erasure mode, keys in its default key directory."""

    def __init__(self, server) -> None:
        self.server = server
        self.settings = server.settings.model_copy(update={"crypto": "on"})
        self.local = server.local
        self.keys = FileKeyStore(self.settings.keys_dir())
        self.clock = Clock(datetime(2025, 1, 1, tzinfo=timezone.utc))

    def connect(self) -> Store:
        """A crypto-on store in the test tenant on a fresh driver (the server may have restarted)."""
        return Store(self.server.db(), tenant=TENANT, embedder=None, _clock=self.clock, _owns_db=False,
                     cipher=cipher_for(self.settings.crypto, self.keys, TENANT))


@pytest.fixture(scope="module")
def instance(private_neo4j) -> Instance:
    return Instance(private_neo4j)


def _raw_text(db: Database) -> str:
    return repr(db.query(_RAW_NODES)) + repr(db.query(_RAW_EDGES))


@pytest.fixture(scope="module")
def timeline(instance: Instance, tmp_path_factory) -> dict:
    """Alice's and Bob's facts; a backup; Alice forgotten (her key destroyed); then the OLD backup restored."""
    store = instance.connect()
    alice = store.add_fact("Alice", "keeps_code", "7431", valid_from="2024-01-01", statement=ALICE,
                           object_is_entity=False)
    bob = store.add_fact("Bob", "lives_in", "Lisbon", valid_from="2024-01-01", statement=BOB)
    assert not ALICE_WORDS.search(_raw_text(store._db))  # sealed from the start
    said: list[str] = []
    made = backup(instance.settings, tmp_path_factory.mktemp("backups") / "before-forget", progress=said.append)
    forgotten = instance.connect().forget_subject("Alice", reason="erasure request", actor="dpo")
    result = restore(instance.settings, made.directory, force=True, progress=said.append)
    return {"alice": alice, "bob": bob, "backup": made, "forgotten": forgotten, "restored": result, "said": said}


def test_the_backup_holds_the_graph_and_not_the_keys(instance, timeline):
    directory = timeline["backup"].directory
    assert sorted(p.name for p in directory.iterdir()) == ["manifest.json", "neo4j.dump"]
    assert instance.settings.keys_dir() not in directory.parents
    assert instance.keys.list(TENANT)  # Bob's key (and the receipts') live on, outside the backup


def test_forgetting_the_subject_destroyed_its_key(timeline):
    report = timeline["forgotten"].report
    assert report.crypto_erased is True and "destroyed" in report.crypto_reason, report.crypto_reason


def test_the_old_backup_restores_and_verifies(timeline):
    result = timeline["restored"]
    assert result.ok, (result.differences, result.ledgers)
    assert result.ledgers[TENANT].startswith("ok")


def test_in_the_restored_backup_the_forgotten_subjects_text_is_unreadable_and_another_subjects_reads(instance,
                                                                                                      timeline):
    store = instance.connect()
    # the restored graph holds Alice's fact again (the backup predates the forget), but its key is gone: a read
    # serves the version with every sealed field saying so ("[unreadable: its key was destroyed by forget]")
    [fact] = store.facts("Alice", valid_at="2024-06-01")
    assert fact.fact_id == timeline["alice"].fact_id
    assert fact.statement == ERASED and fact.object_name == ERASED, fact
    assert not ALICE_WORDS.search(repr(fact))
    # and no node or edge of the restored graph holds her words in plain text
    raw = _raw_text(store._db)
    assert "enc1:" in raw and not ALICE_WORDS.search(raw), ALICE_WORDS.findall(raw)
    # while Bob's text, sealed under a key that still lives, reads as before
    [bob] = store.facts("Bob", valid_at="2024-06-01")
    assert bob.statement == BOB and bob.fact_id == timeline["bob"].fact_id
