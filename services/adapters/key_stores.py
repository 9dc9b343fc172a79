"""Key stores for crypto-erasure (docs/crypto-erasure.md): one 256-bit AES key per data subject, kept outside
the graph. Destroying a key makes every copy of the content it sealed unreadable, backups included.

A key id is `<subject>~<random>`: a subject whose key was destroyed gets a fresh key (a new id) if it is written
again, so an old ciphertext never meets a new key and a destroyed id stays destroyed.

Each key store has an id (`store_id`, written once): the first sealing write records it on the tenant's commit clock,
and a process whose key store is another refuses the tenant (services/core/crypto.py `SealedTenants`).
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from typing import Protocol

KEY_BYTES = 32


class KeyStore(Protocol):
    """Where the per-subject keys live (never in the graph, never in the graph's backups)."""

    def current(self, tenant: str, subject: str) -> str | None:
        """The live key id of a subject, or None."""

    def create(self, tenant: str, subject: str) -> str:
        """A new key for a subject; returns its id."""

    def get(self, tenant: str, key_id: str) -> bytes | None:
        """The key bytes, or None once destroyed (or never made)."""

    def exists(self, tenant: str, key_id: str) -> bool:
        """Whether a key is still live (cheap: checked before every seal with a remembered key)."""

    def destroy(self, tenant: str, key_id: str) -> bool:
        """Destroy a key for good; True if it existed."""

    def has_keys(self, tenant: str) -> bool:
        """Whether the tenant ever had keys (its graph may hold ciphertext)."""

    def list(self, tenant: str) -> list[str]:
        """The live key ids of a tenant."""

    def store_id(self) -> str:
        """This key store's id, made once and never changed (the id a sealed tenant's clock records)."""


def subject_of(key_id: str) -> str:
    """The subject a key id belongs to."""
    return key_id.rpartition("~")[0]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class FileKeyStore:
    """Keys as 0600 files under `root/<tenant hash>/<subject hash>/<key hash>.key`, written atomically (temp file,
    fsync, rename, fsync of the directory) and destroyed by overwrite, fsync, unlink and fsync of the directory.
    Do not back this directory up with the graph: a backup holding both can decrypt what was forgotten."""

    ID_FILE = "store.id"

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._paths: dict[tuple[str, str], str] = {}
        self._id: str | None = None

    def store_id(self) -> str:
        """The id in `root/store.id`, written on first use (atomically: the first of two racing processes wins)."""
        if self._id is None:
            path = self.root / self.ID_FILE
            try:
                self._id = path.read_text(encoding="ascii").strip()
            except FileNotFoundError:
                self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
                tmp = self.root / f"{self.ID_FILE}.{secrets.token_hex(4)}.tmp"
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                try:
                    os.write(fd, f"ks_{secrets.token_hex(8)}\n".encode("ascii"))
                    os.fsync(fd)
                finally:
                    os.close(fd)
                try:
                    os.link(tmp, path)  # fails when another process wrote its id first: that one stands
                except FileExistsError:
                    pass
                finally:
                    tmp.unlink()
                _fsync_dir(self.root)
                self._id = path.read_text(encoding="ascii").strip()
        return self._id

    def _tenant_dir(self, tenant: str) -> Path:
        return self.root / _digest(tenant)

    def _subject_dir(self, tenant: str, subject: str) -> Path:
        return self._tenant_dir(tenant) / _digest(subject)

    def _path(self, tenant: str, key_id: str) -> Path:
        return Path(self._file(tenant, key_id))

    def _file(self, tenant: str, key_id: str) -> str:
        found = self._paths.get((tenant, key_id))
        if found is None:
            found = self._paths[(tenant, key_id)] = str(
                self._subject_dir(tenant, subject_of(key_id)) / f"{_digest(key_id)}.key")
        return found

    def current(self, tenant: str, subject: str) -> str | None:
        """The live key id of a subject (its file's first line), or None."""
        folder = self._subject_dir(tenant, subject)
        for path in sorted(folder.glob("*.key")) if folder.is_dir() else ():
            return path.read_bytes()[KEY_BYTES:].decode("utf-8")
        return None

    def create(self, tenant: str, subject: str) -> str:
        """A new random key for a subject, durable before this returns."""
        key_id = f"{subject}~{secrets.token_hex(8)}"
        path = self._path(tenant, key_id)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES) + key_id.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _fsync_dir(path.parent)
        return key_id

    def get(self, tenant: str, key_id: str) -> bytes | None:
        """The key bytes, or None."""
        try:
            return self._path(tenant, key_id).read_bytes()[:KEY_BYTES]
        except FileNotFoundError:
            return None

    def exists(self, tenant: str, key_id: str) -> bool:
        """Whether the key file is still there (one stat)."""
        return os.path.exists(self._file(tenant, key_id))

    def destroy(self, tenant: str, key_id: str) -> bool:
        """Overwrite, fsync and unlink the key file (the directory entry is synced too)."""
        path = self._path(tenant, key_id)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return False
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, secrets.token_bytes(size))
            os.fsync(fd)
        finally:
            os.close(fd)
        path.unlink()
        _fsync_dir(path.parent)
        return True

    def has_keys(self, tenant: str) -> bool:
        """Whether a key was ever created for the tenant (its directory exists)."""
        return self._tenant_dir(tenant).is_dir()

    def list(self, tenant: str) -> list[str]:
        """The live key ids of a tenant (each file keeps its id after the key bytes)."""
        folder = self._tenant_dir(tenant)
        return sorted(p.read_bytes()[KEY_BYTES:].decode("utf-8") for p in folder.glob("*/*.key")) if folder.is_dir() else []
