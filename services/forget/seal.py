"""The forget probe kept until purge, sealed (issue 24 §6): the content a forget captured (its texts and a few
embeddings) is stored only as an AES-GCM ciphertext under a probe key held in the key store, outside the graph, and
purge destroys that key with the node. A raw read of the graph, its backups or its transaction logs never meets the
words; any handle sharing the key store (each REST request is one) opens it to run the full-text and vector probes.

Probe keys live in their own key space (`<tenant>#forget-probes`), apart from crypto-erasure's per-subject keys, so
they never make a tenant look sealed (`has_keys`), are never swept with its content keys, and exist in crypto mode
off as well. Without a key store nothing of the content is stored: another handle verifies from the graph alone.
"""

from __future__ import annotations

import base64
import json
import os
from array import array
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from credo.services.adapters.key_stores import KeyStore

PREFIX = "probe1:"


def key_space(tenant: str) -> str:
    """The key-store namespace of a tenant's probe keys (never the tenant's own: has_keys/list/sweep skip it)."""
    return f"{tenant}#forget-probes"


def _subject(target_id: str) -> str:
    return f"probe:{target_id}"


def _aad(tenant: str, target_id: str) -> bytes:
    return f"{tenant}\n{target_id}".encode("utf-8")


def probe_key(keys: KeyStore, tenant: str, target_id: str) -> tuple[str, bytes]:
    """(key id, key) of the target's probe key, made on first use: fetched before the forget's transaction, so the
    sealing inside it does no I/O."""
    space, subject = key_space(tenant), _subject(target_id)
    key_id = keys.current(space, subject)
    key = keys.get(space, key_id) if key_id else None
    if key is None:  # none yet, or destroyed between the look-up and the read: a fresh one
        key_id = keys.create(space, subject)
        key = keys.get(space, key_id) or b""
    return key_id, key


def seal_with(key: bytes, tenant: str, target_id: str, texts: list[str], embeddings: list[list[float]]) -> str:
    """The envelope of the probe's content sealed under `key` (pure: no I/O)."""
    flat = array("f", [x for e in embeddings for x in e]).tobytes()
    payload = json.dumps({"texts": texts, "dims": len(embeddings[0]) if embeddings else 0,
                          "vectors": base64.b64encode(flat).decode("ascii")}).encode("utf-8")
    nonce = os.urandom(12)
    sealed = AESGCM(key).encrypt(nonce, payload, _aad(tenant, target_id))
    return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def seal(keys: KeyStore, tenant: str, target_id: str, texts: list[str],
         embeddings: list[list[float]]) -> tuple[str, str]:
    """(key id, envelope) of the probe's content sealed under the target's probe key (made on first use)."""
    key_id, key = probe_key(keys, tenant, target_id)
    return key_id, seal_with(key, tenant, target_id, texts, embeddings)


def open_sealed(keys: KeyStore | None, tenant: str, target_id: str, key_id: str | None,
                envelope: str | None) -> tuple[list[str], list[list[float]]] | None:
    """The probe's (texts, embeddings), or None when there is no envelope, no key store, or its key is destroyed."""
    if keys is None or not key_id or not envelope or not envelope.startswith(PREFIX):
        return None
    key = keys.get(key_space(tenant), key_id)
    if key is None:
        return None
    try:
        raw = base64.urlsafe_b64decode(envelope[len(PREFIX):])
        data: dict[str, Any] = json.loads(AESGCM(key).decrypt(raw[:12], raw[12:], _aad(tenant, target_id)))
    except (InvalidTag, ValueError):
        return None  # altered, or moved from another target: not this forget's content
    flat, dims = array("f"), int(data.get("dims") or 0)
    flat.frombytes(base64.b64decode(data.get("vectors") or ""))
    vectors = [list(flat[i:i + dims]) for i in range(0, len(flat), dims)] if dims else []
    return list(data.get("texts") or []), vectors


def destroy(keys: KeyStore | None, tenant: str, target_ids: list[str]) -> None:
    """Destroy the probe keys of the targets (purge, or a finished tenant-wide forget): their sealed copies, in the
    graph, its backups and its transaction logs, can no longer be opened."""
    if keys is None:
        return
    space = key_space(tenant)
    for target_id in target_ids:
        while (key_id := keys.current(space, _subject(target_id))) is not None:
            if not keys.destroy(space, key_id):
                break
