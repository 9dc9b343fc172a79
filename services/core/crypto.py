"""Crypto-erasure mode (issue 12 item 4, docs/crypto-erasure.md): content fields are sealed with AES-GCM under a
per-subject key from a KeyStore, with the tenant, the node id and the field as associated data.

Two seams only: `seal_*` where version, source and recipe parameters are built (graph/core/versions.py,
graph/gate/sources.py, graph/procedural/recipes.py), and
`open_tree` where rows come back from the driver (graph/core/db.py `Tx.rows`), so every read sees plaintext and the
graph (and its backups and transaction logs) sees ciphertext.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from credo.schema.errors import ConfigError, CredoError
from credo.schema.forget import CRYPTO_MODES, CryptoMode
from credo.services.adapters.key_stores import KeyStore

Mode = CryptoMode
PREFIX = "enc1:"
FACT_FIELDS = ("statement", "quote")  # a fact version's words
LITERAL_FIELDS = ("object_value", "object_name")  # a literal object (an entity object is a name: not sealed)
SOURCE_FIELDS = ("text", "title")  # a source's verbatim words, and a document's title
RECIPE_FIELDS = ("task_shape", "steps")  # a recipe's words (each step apart), under its source's key
EDGE_QUOTE = "sourced_quote"  # the quote on a SOURCED_FROM edge, sealed under the source's key
QUESTION = "query"  # a read receipt's question, sealed under the tenant's receipts key
VERDICT_REASON = "reason"  # a verifier's reason on a :Verification, sealed under the judged fact's subject's key
# A question is the asker's words, not a data subject's: it may name no stored subject or several, so no subject's
# key fits it, and a key per question would be a key file per read. Forgetting removes the questions naming its
# content from the store; this key, which forgetting one subject never destroys (other questions need it), keeps
# their old copies sealed from anyone holding a backup without the key store (forget_tenant's sweep destroys it
# once no question is left).
RECEIPTS_SUBJECT = "receipts:questions"
ERASED = "[unreadable: its key was destroyed by forget]"


class SealBroken(CredoError):
    """A sealed value failed its integrity check: altered, or moved from another node or field."""


def fact_subject(subject_id: str) -> str:
    """The key subject of a fact version: the entity it is about."""
    return f"entity:{subject_id}"


def source_subject(source_id: str) -> str:
    """The key subject of a source: the source itself (its speaker may be a free-text name, or nobody)."""
    return f"source:{source_id}"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _aad(tenant: str, header: bytes) -> bytes:
    return tenant.encode("utf-8") + b"\n" + header


def is_sealed(value: Any) -> bool:
    """Whether a stored value is a sealed envelope."""
    return isinstance(value, str) and value.startswith(PREFIX)


def header_of(value: str) -> dict[str, str]:
    """The clear header of an envelope: key id `k`, node id `n`, field `f` (authenticated, not secret)."""
    return json.loads(_unb64(value[len(PREFIX):].partition(".")[0]))


@dataclass
class Cipher:
    """A store's sealing and opening (shared by its tenants' handles: every call names the tenant); `mode`
    "read-only" opens old ciphertext but seals nothing new."""

    keys: KeyStore
    mode: Mode = "on"
    _cache: dict[tuple[str, str], AESGCM] = field(default_factory=dict, repr=False)
    _current: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)

    @property
    def sealing(self) -> bool:
        """Whether new content is sealed."""
        return self.mode == "on"

    def _key_for(self, tenant: str, subject: str) -> tuple[str, AESGCM]:
        """The live key of a subject (made on first use). A remembered id is re-checked in the key store before each
        seal, so content is never sealed under a key another process has destroyed."""
        key_id = self._current.get((tenant, subject))
        if key_id is None or not self.keys.exists(tenant, key_id):
            key_id = self.keys.current(tenant, subject) or self.keys.create(tenant, subject)
        aead = self.key(tenant, key_id)
        if aead is None:  # destroyed between the two calls: a fresh key, never the old id
            key_id = self.keys.create(tenant, subject)
            aead = self.key(tenant, key_id)
        assert aead is not None
        self._current[(tenant, subject)] = key_id
        return key_id, aead

    def key(self, tenant: str, key_id: str) -> AESGCM | None:
        """The AEAD of a key, or None once destroyed (cached in this handle; a key destroyed by another process
        stays usable for opening in this one until it restarts — never for sealing)."""
        found = self._cache.get((tenant, key_id))
        if found is None:
            raw = self.keys.get(tenant, key_id)
            if raw is None:
                return None
            found = self._cache[(tenant, key_id)] = AESGCM(raw)
        return found

    def destroy(self, tenant: str, key_id: str) -> bool:
        """Destroy a key in the key store and in this handle's cache."""
        self._cache.pop((tenant, key_id), None)
        return self.keys.destroy(tenant, key_id)

    def seal(self, tenant: str, subject: str, node: str, name: str, text: str) -> tuple[str, str]:
        """(envelope, key id) of `text` for field `name` of node `node`."""
        key_id, aead = self._key_for(tenant, subject)
        header = json.dumps({"k": key_id, "n": node, "f": name}, separators=(",", ":"), sort_keys=True).encode()
        nonce = os.urandom(12)
        sealed = aead.encrypt(nonce, text.encode("utf-8"), _aad(tenant, header))
        return f"{PREFIX}{_b64(header)}.{_b64(nonce + sealed)}", key_id

    def open(self, tenant: str, value: str, *, node: str | None = None, name: str | None = None) -> str | None:
        """The plaintext of an envelope, or None when its key was destroyed; SealBroken if it was altered or (given
        `node`/`name`) belongs to another node or field."""
        head_text, _, body = value[len(PREFIX):].partition(".")
        header_bytes = _unb64(head_text)
        header = json.loads(header_bytes)
        if (node is not None and header.get("n") != node) or (name is not None and header.get("f") != name):
            raise SealBroken(f"a sealed {header.get('f')} of node {header.get('n')} was found on {node} ({name}): "
                             "refused (a ciphertext cannot move between nodes)")
        aead = self.key(tenant, header["k"])
        if aead is None:
            return None
        raw = _unb64(body)
        try:
            return aead.decrypt(raw[:12], raw[12:], _aad(tenant, header_bytes)).decode("utf-8")
        except InvalidTag as exc:
            raise SealBroken(f"the sealed {header.get('f')} of node {header.get('n')} failed its integrity check "
                             "(altered, or its header was rewritten to move it)") from exc

    # -- the encrypt seam ------------------------------------------------------------------
    def seal_fact(self, tenant: str, props: dict[str, Any]) -> dict[str, Any]:
        """A fact version's stored properties with its content fields sealed under its subject's key."""
        if not self.sealing:
            return props
        props = dict(props)
        names = FACT_FIELDS + (LITERAL_FIELDS if props.get("object_type") != "entity" else ())
        for name in names:
            if isinstance(props.get(name), str) and props[name] and not is_sealed(props[name]):
                props[name], props["crypto_key"] = self.seal(tenant, fact_subject(props["subject_id"]),
                                                             props["version_id"], name, props[name])
        return props

    def seal_source(self, tenant: str, row: dict[str, Any]) -> dict[str, Any]:
        """A source's stored properties with its text and title sealed under the source's own key."""
        if not self.sealing:
            return row
        row = dict(row)
        for name in SOURCE_FIELDS:
            if isinstance(row.get(name), str) and row[name] and not is_sealed(row[name]):
                row[name], row["crypto_key"] = self.seal(tenant, source_subject(row["source_id"]), row["source_id"],
                                                         name, row[name])
        return row

    def seal_edge_quote(self, tenant: str, version_id: str, source_id: str, quote: str | None) -> str | None:
        """A SOURCED_FROM quote sealed under its source's key (forgetting the source erases it)."""
        if not self.sealing or not quote or is_sealed(quote):
            return quote
        return self.seal(tenant, source_subject(source_id), f"{version_id}>{source_id}", EDGE_QUOTE, quote)[0]

    def seal_recipe(self, tenant: str, row: dict[str, Any]) -> dict[str, Any]:
        """A recipe version's stored properties with its task shape and each step sealed under the key of the source
        it was earned by (`because`): forgetting that source, which forgets the recipe, erases their old copies. Its
        shape key stays plain: recipes are looked up by it (docs/crypto-erasure.md)."""
        if not self.sealing:
            return row
        row, subject, node = dict(row), source_subject(row["because"]), row["version_id"]
        if isinstance(row.get("task_shape"), str) and row["task_shape"] and not is_sealed(row["task_shape"]):
            row["task_shape"] = self.seal(tenant, subject, node, "task_shape", row["task_shape"])[0]
        if isinstance(row.get("steps"), list):
            row["steps"] = [s if not s or is_sealed(s) else self.seal(tenant, subject, node, "steps", s)[0]
                            for s in row["steps"]]
        return row

    def seal_verdict(self, tenant: str, row: dict[str, Any], subject_id: str) -> dict[str, Any]:
        """A :Verification's properties with its reason sealed under the key of the judged fact's subject (the key
        its statement is sealed under): a verifier's reason may quote the statement (an LLM's does)."""
        reason = row.get(VERDICT_REASON)
        if not self.sealing or not isinstance(reason, str) or not reason or is_sealed(reason):
            return row
        return {**row, VERDICT_REASON: self.seal(tenant, fact_subject(subject_id), row["verification_id"],
                                                 VERDICT_REASON, reason)[0]}

    def seal_question(self, tenant: str, receipt_id: str, question: str | None) -> str | None:
        """A read receipt's question sealed under the tenant's receipts key (RECEIPTS_SUBJECT)."""
        if not self.sealing or not question or is_sealed(question):
            return question
        return self.seal(tenant, RECEIPTS_SUBJECT, receipt_id, QUESTION, question)[0]

    # -- the decrypt seam ------------------------------------------------------------------
    def open_tree(self, tenant: str, data: Any) -> Any:
        """A driver row with every envelope opened (a destroyed key reads as ERASED); where a map carries the node's
        own id (a fact's version_id, a source's source_id), an envelope of another node is refused."""
        if isinstance(data, dict):
            out = {}
            for k, v in data.items():
                if is_sealed(v):
                    node = _own_node(data, k, v)
                    plain = self.open(tenant, v, node=node, name=k if node is not None else None)
                    out[k] = ERASED if plain is None else plain
                else:
                    out[k] = self.open_tree(tenant, v)
            return out
        if isinstance(data, list):
            return [self.open_tree(tenant, v) for v in data]
        if is_sealed(data):
            plain = self.open(tenant, data)
            return ERASED if plain is None else plain
        return data


def _own_node(row: dict[str, Any], key: str, value: str) -> str | None:
    """The node id a content field of this map must be sealed for, when the map says which node it is."""
    name = header_of(value).get("f")
    fields = FACT_FIELDS + LITERAL_FIELDS
    if key in fields and name in fields and isinstance(row.get("version_id"), str):
        return row["version_id"]
    if key in SOURCE_FIELDS and name in SOURCE_FIELDS and isinstance(row.get("source_id"), str):
        return row["source_id"]
    return None


class SealedTenants:
    """Which tenants hold sealed content, as their commit clocks say (shared by every handle of a process): a process
    whose mode is off refuses them. A sealed tenant stays sealed, so that answer is kept; "not sealed" is asked
    again after RECHECK_S, since another process may seal the tenant meanwhile (writes are refused at once anyway:
    graph/core/ledger.py `begin`)."""

    RECHECK_S = 10.0

    def __init__(self, db: Any) -> None:
        self._db = db
        self._known: dict[str, float | None] = {}  # tenant -> when "not sealed" was read (None: sealed)
        self._stores: dict[str, str | None] = {}  # sealed tenant -> the key store that sealed it (None: not recorded)

    def refuse_if_foreign(self, tenant: str, keys: KeyStore) -> None:
        """ConfigError when the tenant was sealed with another key store than `keys` (a wrong or empty
        CREDO_KEY_DIR would read every sealed value as destroyed): the id its clock records differs, or, for a
        tenant sealed before ids were recorded, `keys` holds none of its keys. The recorded id never changes, so it
        is read once per process; an unsealed tenant is asked again after RECHECK_S."""
        import time

        from credo.graph.core.ledger import foreign_key_store
        from credo.graph.core.sealed import sealed_by

        if tenant not in self._stores:
            seen = self._known.get(tenant, float("-inf"))
            if seen is not None and time.monotonic() - seen < self.RECHECK_S:
                return
            sealed, store = self._db.read(lambda tx: sealed_by(tx, tenant))
            if not sealed:
                self._known[tenant] = time.monotonic()
                return
            self._known[tenant] = None
            if store is not None:
                self._stores[tenant] = store
        store = self._stores.get(tenant)
        ours = keys.store_id()
        if (store is not None and store != ours) or (store is None and not keys.has_keys(tenant)):
            raise ConfigError(foreign_key_store(tenant, store, ours))

    def refuse_if_sealed(self, tenant: str) -> None:
        """ConfigError when the tenant holds sealed content (this process cannot open it)."""
        import time

        from credo.graph.core.sealed import tenant_sealed

        seen = self._known.get(tenant, float("-inf"))
        if seen is not None and time.monotonic() - seen >= self.RECHECK_S:
            sealed = self._db.read(lambda tx: tenant_sealed(tx, tenant))
            seen = self._known[tenant] = None if sealed else time.monotonic()
        if seen is None:
            raise ConfigError(f"tenant {tenant!r} holds crypto-sealed content and this process runs with "
                              "CREDO_CRYPTO=off: set CREDO_CRYPTO=on (or read-only) and the key directory that sealed "
                              "it (docs/crypto-erasure.md)")


def cipher_for(mode: str, keys: KeyStore | None, tenant: str) -> Cipher | None:
    """The cipher a store handle uses: none when off (refused if the tenant has sealed data, unless "read-only")."""
    if mode not in CRYPTO_MODES:
        raise ConfigError(f"CREDO_CRYPTO must be off, on or read-only, not {mode!r}")
    if mode == "off":
        if keys is not None and keys.has_keys(tenant):
            raise ConfigError(f"tenant {tenant!r} has crypto-sealed content: CREDO_CRYPTO=off would write new content "
                              "in plaintext and could not read the old; use on, or read-only to stop sealing saying so")
        return None
    if keys is None:
        raise ConfigError("crypto mode needs a key store (CREDO_KEY_DIR, default <instance>/keys)")
    return Cipher(keys=keys, mode=mode)  # type: ignore[arg-type]
