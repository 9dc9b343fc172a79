"""Crypto-erasure on forget (docs/crypto-erasure.md): after a forget commits, every key that sealed the forgotten
content and that no remembered content still needs is destroyed; verify_forgotten then says whether the copies
outside the store (transaction logs, backups) are unreadable, and why.

Rule: a key is destroyed when no node that is not forgotten holds content sealed under it. A subject's key so goes
with the last remembered fact about it (forget_subject, or forgetting its only fact); a source's key goes with the
source. Forgetting one fact of a subject with other remembered facts keeps the key, and says so. The tenant's
receipts key (read receipts' questions) goes only when no sealed question is left (a tenant-wide forget's sweep).

`crypto_erased` is true only when every copy the forget touched is sealed under a destroyed key or gone from the
store (the residue report is complete); `crypto_reason` names what the mode never seals.
"""

from __future__ import annotations

from credo.graph.core import sealed
from credo.graph.core.db import Tx
from credo.services.core.context import Context
from credo.services.core.crypto import Cipher
from credo.services.adapters.key_stores import subject_of

COVERED = ("statement, quote and literal value of every version, source text and title, evidence quotes, "
           "verifiers' reasons, and recipes' task shapes and steps, sealed under their subject's or source's key")
NOT_COVERED = ("not covered (their copies in transaction logs and backups stay readable until they expire; forgetting "
               "removed them from the store): embeddings, entity names and aliases, summaries' topics and texts, "
               "reasons and other free text (ledger reasons, details and claimed actors, end and "
               "lapse reasons, stale causes, task labels), source uris and authors, recipes' shape keys (the sorted "
               "words of a task shape, which recipes are looked up by), stored in plaintext; and read receipts' "
               "questions, sealed under the tenant's receipts key, which forgetting one subject never destroys "
               "(docs/crypto-erasure.md)")


def _users(tx: Tx, tenant: str, key_ids: list[str]) -> dict[str, int]:
    keys = []
    for k in key_ids:
        kind, _, ident = subject_of(k).partition(":")
        keys.append((k, kind, ident))
    return sealed.key_users(tx, tenant, keys)


def erase(ctx: Context, *, fact_ids: list[str], source_ids: list[str]) -> list[str]:
    """Destroy the keys of this forgotten content that nothing remembered still needs; returns every key id that
    sealed it (destroyed or not), for the residue report."""
    if ctx.cipher is None:
        return []
    key_ids = ctx.read(lambda tx: sealed.content_keys(tx, ctx.tenant, fact_ids=fact_ids, source_ids=source_ids))
    erase_keys(ctx, key_ids)
    return key_ids


def sweep(ctx: Context, subjects: list[str] | None = None) -> list[str]:
    """At the end of a scope-wide forget: destroy every live key of these subjects (all of the tenant's when None)
    that nothing remembered needs (a batch that crashed before its own erasure is caught here); returns them."""
    if ctx.cipher is None:
        return []
    live = [k for k in ctx.cipher.keys.list(ctx.tenant) if subjects is None or subject_of(k) in subjects]
    erase_keys(ctx, live)
    return live


def erase_keys(ctx: Context, key_ids: list[str]) -> list[str]:
    """Destroy the given keys that no remembered node still needs; returns the ids destroyed."""
    if ctx.cipher is None or not key_ids:
        return []
    users = ctx.read(lambda tx: _users(tx, ctx.tenant, key_ids))
    gone = [k for k in key_ids if users.get(k, 0) == 0]
    for k in gone:
        ctx.cipher.destroy(ctx.tenant, k)
    return gone


def status(tx: Tx, tenant: str, cipher: Cipher | None, key_ids: list[str], *,
           complete: bool = True) -> tuple[bool, str]:
    """(crypto_erased, why) for forgotten content sealed under `key_ids`; never true while a copy of it is still in the
    store (`complete` false: the residue report names it)."""
    erased, why = _keys_status(tx, tenant, cipher, key_ids)
    if erased and not complete:
        return False, f"not erased while copies of it are still in the store (see residue); {why}"
    return erased, why


def _keys_status(tx: Tx, tenant: str, cipher: Cipher | None, key_ids: list[str]) -> tuple[bool, str]:
    if not key_ids:
        if cipher is None:
            return False, ("crypto-erasure mode is off for this store: copies in transaction logs and backups stay "
                           "readable until they expire")
        return False, ("no sealed copy of it is known (stored in plaintext before crypto mode was on, or purged before "
                       "this handle saw its keys): copies in transaction logs and backups may stay readable until they "
                       "expire")
    if cipher is None:
        return False, "crypto mode is off for this handle, so the state of its keys cannot be checked"
    alive = [k for k in key_ids if cipher.keys.get(tenant, k) is not None]  # the store, not this handle's cache
    if alive:
        users = _users(tx, tenant, alive)
        held = "; ".join(f"key {k} still protects {users.get(k, 0)} remembered item(s) of {subject_of(k)}"
                         for k in alive)
        return False, (f"{held}: copies outside the store stay readable with it (a key is destroyed only when no "
                       "remembered content needs it; forget the subject to erase it)")
    return True, (f"key(s) {', '.join(key_ids)} destroyed: the {COVERED} in transaction logs and backups can no "
                  f"longer be decrypted; {NOT_COVERED}")


RECIPE_PLAIN = ("its shape key (the sorted words of its task shape, which recipes are looked up by) was never sealed: "
                "old copies of the recipe and the ledger's record_recipe detail hold it in plaintext until they expire")


def recipe_status(tx: Tx, tenant: str, cipher: Cipher | None, recipe_id: str, because: str | None,
                  key_ids: list[str], *, complete: bool = True) -> tuple[bool, str]:
    """(crypto_erased, why) for a forgotten recipe, whose task shape and steps are sealed under the key of the source
    it was earned by (`because`), not under a key of its own: forgetting the recipe alone never destroys that key."""
    if cipher is None or because is None:
        return status(tx, tenant, cipher, key_ids, complete=complete)
    sealed_under = f"recipe {recipe_id}'s task shape and steps are sealed under the key of source {because}"
    if not key_ids:
        return False, (f"{sealed_under} (the source it was earned by), but no key of that source is known (stored "
                       "in plaintext before crypto mode was on, or purged before this handle saw its keys): copies "
                       f"in transaction logs and backups may stay readable until they expire; {RECIPE_PLAIN}")
    alive = [k for k in key_ids if cipher.keys.get(tenant, k) is not None]
    if alive:
        users = _users(tx, tenant, alive)
        held = ", ".join(f"key {k} ({users.get(k, 0)} remembered item(s) of source {because} still need it)"
                         for k in alive)
        return False, (f"{sealed_under} (the source it was earned by): {held} stays alive while the source is "
                       "remembered, so the recipe's old copies in transaction logs and backups are still readable "
                       f"with it (forgetting removed every copy from the store); {RECIPE_PLAIN}; forget source "
                       f"{because} to destroy the key")
    erased = f"{sealed_under}: key {', '.join(key_ids)} destroyed (the source was forgotten), so its old copies in " \
             f"transaction logs and backups can no longer be decrypted; {RECIPE_PLAIN}"
    if not complete:
        return False, f"not erased while copies of it are still in the store (see residue); {erased}"
    return True, erased
