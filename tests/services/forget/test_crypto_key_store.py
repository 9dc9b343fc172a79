"""A sealed tenant records which key store sealed it, and a process whose CREDO_KEY_DIR is another store refuses it
(ConfigError: 503 not_configured over HTTP) instead of reading its content as destroyed."""

from __future__ import annotations

import pytest

from credo.cypher import Query
from credo.schema.errors import ConfigError
from credo.services.core.crypto import ERASED, cipher_for
from credo.services.adapters.key_stores import FileKeyStore
from credo.store import Store
from tests.services.forget.test_forget import HashEmbedder

_FORGET_MARK = Query("raw", "MATCH (c:Clock {tenant: $tenant}) REMOVE c.key_store", frozenset())


def _sealed(neo4j_db, tenant, clock, keys: FileKeyStore) -> Store:
    store = Store(neo4j_db, tenant=tenant, embedder=HashEmbedder(), _clock=clock, _owns_db=False, crypto="on",
                  keys=keys)
    store.add_fact("Eve", "likes", "Chess", valid_from="2024-01-01", statement="Eve likes chess on Sundays")
    return store


def _other_sealed(neo4j_db, clock, tmp_path, tenant) -> FileKeyStore:
    """A key store that sealed another tenant only."""
    other = FileKeyStore(tmp_path / "other")
    Store(neo4j_db, tenant=f"{tenant}_other", embedder=None, _clock=clock, _owns_db=False, crypto="on",
          keys=other).add_fact("Bob", "likes", "Go", valid_from="2024-01-01")
    return other


WRONG = ["an empty directory", "a directory that does not exist", "another tenant's key store"]


@pytest.mark.parametrize("wrong", WRONG)
@pytest.mark.parametrize("mode", ["on", "read-only"])
def test_a_process_whose_key_directory_did_not_seal_the_tenant_refuses_it_in_one_line(neo4j_db, tenant, clock,
                                                                                      tmp_path, wrong, mode):
    # given a tenant sealed with the key store in `sealing/`
    sealing = FileKeyStore(tmp_path / "sealing")
    _sealed(neo4j_db, tenant, clock, sealing)
    keys = {"an empty directory": lambda: (tmp_path / "empty").mkdir() or FileKeyStore(tmp_path / "empty"),
            "a directory that does not exist": lambda: FileKeyStore(tmp_path / "missing"),
            "another tenant's key store": lambda: _other_sealed(neo4j_db, clock, tmp_path, tenant)}[wrong]()
    # when a process with crypto on (or read-only) opens it with another key directory, then it is refused, saying
    # why in one line, rather than serving "[unreadable: its key was destroyed by forget]"
    with pytest.raises(ConfigError, match="key store") as refused:
        Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False, crypto=mode, keys=keys)
    assert "\n" not in str(refused.value) and "CREDO_KEY_DIR" in str(refused.value)
    # and so is a handle of that process for the tenant (a REST request's), while other tenants are served
    base = Store(neo4j_db, tenant=f"{tenant}_unsealed", embedder=None, _owns_db=False, crypto=mode, keys=keys)
    with pytest.raises(ConfigError, match="key store"):
        base.for_tenant(tenant)


def test_the_key_directory_that_sealed_the_tenant_keeps_serving_it(neo4j_db, tenant, clock, tmp_path):
    # given a tenant sealed with a key store, and another process with the same key directory
    sealing = _sealed(neo4j_db, tenant, clock, FileKeyStore(tmp_path / "sealing"))
    again = Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False, crypto="on",
                  keys=FileKeyStore(tmp_path / "sealing"))
    # then it reads the content in clear, and writes
    assert [f.statement for f in again.facts("Eve")] == ["Eve likes chess on Sundays"]
    again.add_fact("Eve", "plays", "Go", valid_from="2024-01-01")
    assert sealing.facts("Eve", predicate="plays")[0].statement != ERASED


def test_a_write_is_refused_when_another_key_store_sealed_the_tenant_after_the_handle_was_made(neo4j_db, tenant,
                                                                                                clock, tmp_path):
    # given a handle made while its tenant held nothing sealed, with its own key directory
    late = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False,
                 cipher=cipher_for("on", FileKeyStore(tmp_path / "late"), tenant))
    # when another process seals the tenant with its key store first
    _sealed(neo4j_db, tenant, clock, FileKeyStore(tmp_path / "first"))
    # then the handle's next write is refused (its content would be sealed under keys the tenant's readers lack)
    with pytest.raises(ConfigError, match="key store"):
        late.add_fact("Eve", "plays", "Go", valid_from="2024-01-01")


def test_a_tenant_sealed_before_its_key_store_was_recorded_is_refused_by_a_directory_without_its_keys(
        neo4j_db, tenant, clock, tmp_path):
    # given a tenant sealed before the clock recorded its key store (an older release)
    _sealed(neo4j_db, tenant, clock, FileKeyStore(tmp_path / "sealing"))
    neo4j_db.query(_FORGET_MARK, write=True, tenant=tenant)
    # then a key directory holding none of its keys is refused, and the one that sealed it is served and recorded
    with pytest.raises(ConfigError, match="key store"):
        Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False, crypto="on", keys=FileKeyStore(tmp_path / "x"))
    right = Store(neo4j_db, tenant=tenant, embedder=None, _clock=clock, _owns_db=False, crypto="on",
                  keys=FileKeyStore(tmp_path / "sealing"))
    right.add_fact("Eve", "plays", "Go", valid_from="2024-01-01")
    other = _other_sealed(neo4j_db, clock, tmp_path, tenant)
    with pytest.raises(ConfigError, match="key store"):
        Store(neo4j_db, tenant=tenant, embedder=None, _owns_db=False, crypto="on", keys=other)
