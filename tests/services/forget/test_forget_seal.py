"""Issue 24 §6: the forget probe kept until purge is sealed under a probe key outside the graph, which purge destroys;
probe keys never make a tenant look crypto-sealed."""

from __future__ import annotations

import pytest

from credo.services.forget import seal as forget_seal
from credo.services.adapters.key_stores import FileKeyStore

TEXTS = ["Maria Quokkaberry was diagnosed with Diabetesvex"]
VECTORS = [[0.5, -0.25, 0.125], [1.0, 0.0, -1.0]]


@pytest.fixture
def keys(tmp_path) -> FileKeyStore:
    return FileKeyStore(tmp_path / "keys")


def test_a_sealed_probe_holds_none_of_the_words_and_opens_only_for_its_own_target_while_its_key_lives(keys):
    key_id, envelope = forget_seal.seal(keys, "t1", "f_1", TEXTS, VECTORS)
    assert "quokkaberry" not in envelope.lower() and "diabetesvex" not in envelope.lower()
    assert forget_seal.open_sealed(keys, "t1", "f_1", key_id, envelope) == (TEXTS, VECTORS)
    # another target or tenant (a moved copy), an altered envelope, no key store: nothing opens
    assert forget_seal.open_sealed(keys, "t1", "f_2", key_id, envelope) is None
    assert forget_seal.open_sealed(keys, "t2", "f_1", key_id, envelope) is None
    assert forget_seal.open_sealed(keys, "t1", "f_1", key_id, envelope[:-4] + "AAAA") is None
    assert forget_seal.open_sealed(None, "t1", "f_1", key_id, envelope) is None
    # once purge destroyed the key, no copy of the envelope (a backup, a transaction log) opens
    forget_seal.destroy(keys, "t1", ["f_1"])
    assert forget_seal.open_sealed(keys, "t1", "f_1", key_id, envelope) is None
    assert keys.list(forget_seal.key_space("t1")) == []


def test_probe_keys_live_apart_from_the_tenants_crypto_keys(keys):
    # given a probe sealed for a tenant that never had crypto-erasure keys
    forget_seal.seal(keys, "t1", "f_1", TEXTS, [])
    # then the tenant does not look sealed (crypto mode off stays allowed) and a key sweep does not see the probe key
    assert keys.has_keys("t1") is False and keys.list("t1") == []
    # and sealing again for the same target reuses its live key
    first = keys.list(forget_seal.key_space("t1"))
    forget_seal.seal(keys, "t1", "f_1", TEXTS, VECTORS)
    assert keys.list(forget_seal.key_space("t1")) == first
