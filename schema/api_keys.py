"""API keys, scopes and the principal: who a call acts as, resolved once and carried below every surface.

A key grants a tenant, a clearance (`schema/search.py`: which sensitivity labels its reads may see) and scopes (which
operations it may call). Every operation of the registry (`schema/operations.py`) declares the one scope it needs:

    read    every read (facts, why, history, search and context without a receipt, ...)
    write   the write gate: messages, remember, accept, sources, extraction, feedback, search/context with a receipt
    curate  a person's decisions: direct writes and corrections, conflicts, reverify, admit/reject, lifecycle, merges
    forget  forget and purge of items (and of one subject)
    admin   tenant-wide forget and its resume, import, maintain, the audit ledger
    attest  vouch that a message is a person's: with the tenant flag `attested_human_messages` on, only a key holding
            it may ingest human testimony (services/gate/attest.py); it is no operation's scope

A key made before scopes existed (`scopes` unset) keeps what it could do then: every scope (`credo keys list` says
"all (made before scopes)").
"""

from __future__ import annotations

import getpass
import os
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from credo.schema.errors import Forbidden

SCOPES: tuple[str, ...] = ("read", "write", "curate", "forget", "admin", "attest")
ALL_SCOPES: frozenset[str] = frozenset(SCOPES)
PRESETS: dict[str, tuple[str, ...]] = {
    "reader": ("read",),
    "agent": ("read", "write"),  # remembers and recalls through the gate; cannot decide, correct or erase
    "curator": ("read", "write", "curate", "forget"),
    "operator": SCOPES,  # every scope: the person who runs the service
    # the application that really receives the person's input (a chat app, a voice front end): it relays their turns
    # and vouches for them; the agent keeps its own `agent` key (the tenant flag `attested_human_messages`)
    "harness": ("read", "write", "attest"),
}
DEFAULT_PRESET = "agent"


class ApiKey(BaseModel):
    """One API key as stored: public id, tenant, clearance, scopes (None: made before scopes), label, lifetime."""

    model_config = ConfigDict(frozen=True)

    key_id: str
    tenant: str
    clearance: str
    scopes: tuple[str, ...] | None = None
    name: str | None = None
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def granted(self) -> frozenset[str]:
        """The scopes this key holds (a key made before scopes holds them all)."""
        return ALL_SCOPES if self.scopes is None else frozenset(self.scopes)


class NewApiKey(BaseModel):
    """A key just created: the full secret is shown once, here, and never stored."""

    model_config = ConfigDict(frozen=True)

    key: ApiKey
    secret: str


def local_actor() -> str:
    """Who the library and the CLI act as in the ledger: the operating-system user running the process."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no passwd entry (some containers)
        user = f"uid{os.getuid()}" if hasattr(os, "getuid") else "unknown"
    return f"local:{user}"


class Principal(BaseModel):
    """Who a call acts as: the tenant, clearance and scopes its key grants (the tenant never comes from the request),
    the key's id, and the actor the ledger records (`key:<id>`, or `local:<user>` for the library and the CLI)."""

    model_config = ConfigDict(frozen=True)

    tenant: str
    clearance: str = "all"
    scopes: frozenset[str] = Field(default=ALL_SCOPES)
    key_id: str | None = None
    actor: str = Field(default_factory=local_actor)

    @classmethod
    def of_key(cls, key: ApiKey) -> "Principal":
        """The principal an authenticated key acts as."""
        return cls(tenant=key.tenant, clearance=key.clearance, scopes=key.granted, key_id=key.key_id,
                   actor=f"key:{key.key_id}")

    @classmethod
    def local(cls, tenant: str) -> "Principal":
        """The library's and the CLI's principal: the process user, every scope, clearance `all`."""
        return cls(tenant=tenant)

    def require(self, scope: str, operation: str) -> None:
        """Refuse (Forbidden, 403) an operation whose scope this principal lacks."""
        if scope not in self.scopes:
            held = ", ".join(s for s in SCOPES if s in self.scopes) or "none"
            raise Forbidden("scope", f"{operation} needs the {scope!r} scope; this key has: {held}")


def parse_scopes(values: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """Scopes from names and presets (`agent`, `curator`, ...; comma-separated allowed), in SCOPES order; ValueError
    naming an unknown one."""
    chosen: set[str] = set()
    for value in values or [DEFAULT_PRESET]:
        for name in (v.strip().lower() for v in str(value).split(",")):
            if not name:
                continue
            if name in ALL_SCOPES:
                chosen.add(name)
            elif name in PRESETS:
                chosen.update(PRESETS[name])
            else:
                raise ValueError(f"unknown scope {name!r}; scopes are {list(SCOPES)}, presets {list(PRESETS)}")
    if not chosen:
        raise ValueError(f"give at least one scope ({list(SCOPES)}) or preset ({list(PRESETS)})")
    return tuple(s for s in SCOPES if s in chosen)
