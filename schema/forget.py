"""Forgetting shapes: the tombstone a read shows, the residue report, and the persisted scope-wide job."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, computed_field

from credo.schema.cascade import CascadeReport

TargetKind = Literal["fact", "source", "entity", "summary", "recipe", "tenant"]
CryptoMode = Literal["off", "on", "read-only"]
"""CREDO_CRYPTO: crypto-erasure off, on, or read-only (opens old ciphertext, seals nothing new)."""
CRYPTO_MODES: tuple[CryptoMode, ...] = get_args(CryptoMode)


class Tombstone(BaseModel):
    """What a read at an earlier known time shows in place of forgotten content: when, who acted (the authenticated
    key `key:<id>`, or the local process user `local:<user>`), who the caller said it acted for, and why."""

    model_config = ConfigDict(frozen=True)

    forgotten_at: datetime
    by: str
    reason: str
    on_behalf_of: str | None = None

    def text(self) -> str:
        """'forgotten on T by A (on behalf of B) for R' (without the parenthesis when nobody else was named)."""
        behalf = f" (on behalf of {self.on_behalf_of})" if self.on_behalf_of and self.on_behalf_of != self.by else ""
        return f"forgotten on {self.forgotten_at.isoformat()} by {self.by}{behalf} for {self.reason}"


class Residue(BaseModel):
    """One place that still holds forgotten content."""

    model_config = ConfigDict(frozen=True)

    place: str  # node property, full-text, vector, relation copy, alias, summary, episode, read receipt, ledger
    ref: str
    detail: str


class Kept(BaseModel):
    """One thing forgetting leaves by design (not residue): what it is, and why it stays."""

    model_config = ConfigDict(frozen=True)

    place: str  # entity, source, read receipt, ledger, tombstone
    ref: str
    detail: str


class OutsideStore(BaseModel):
    """A copy the store cannot erase by itself (transaction logs, backups)."""

    model_config = ConfigDict(frozen=True)

    place: str
    detail: str


class ResidueReport(BaseModel):
    """verify_forgotten's answer: every place still holding the content; complete only when there is none."""

    model_config = ConfigDict(frozen=True)

    target_id: str
    kind: TargetKind | None = None
    residue: list[Residue] = Field(default_factory=list)
    probes: list[str] = Field(default_factory=list)  # which searches ran (full-text / vector need the content)
    checked: list[str] = Field(default_factory=list)  # every kind of place the report looked in
    left_by_design: list[Kept] = Field(default_factory=list)  # what forgetting keeps on purpose (never content)
    tombstone: Tombstone | None = None  # forgotten on T by A for R (kept after purge, in the ledger)
    purged_at: datetime | None = None  # when its nodes were deleted (forgotten -> deleted), if they were
    probe_from: str = "none (purged, never captured, or its sealed copy cannot be opened here): graph-only checks"
    outside_store: list[OutsideStore] = Field(default_factory=list)
    tx_log_retention: str | None = None
    crypto_erased: bool = False
    crypto_reason: str = "crypto-erasure mode is off: copies outside the store stay readable until they expire"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def complete(self) -> bool:
        """True only when no place inside the store still holds the content."""
        return not self.residue


class ForgetPreview(BaseModel):
    """What forgetting an id will reach, read from that id alone before anything is written (the inspector's
    confirmation: its button forgets exactly `target_id`)."""

    model_config = ConfigDict(frozen=True)

    target_id: str
    kind: TargetKind
    title: str  # what the id names: a fact's statement, an entity's name, a source's title, a summary's topic
    reached: list[str]
    already_forgotten: bool = False


class ForgetResult(BaseModel):
    """What a forget did: the ids it forgot (the target first), the residue report, and its cascade."""

    model_config = ConfigDict(frozen=True)

    target_id: str
    kind: TargetKind
    forgotten: list[str]
    report: ResidueReport
    cascade: CascadeReport | None = None


class ForgetJob(BaseModel):
    """A persisted scope-wide forget (:ForgetJob): resumable after a crash from its cursor."""

    model_config = ConfigDict(frozen=True)

    job_id: str
    scope: Literal["subject", "tenant"]
    target: str | None = None
    reason: str
    actor: str  # who started it: the acting key (`key:<id>`) or the local process user
    on_behalf_of: str | None = None  # who the caller said it acted for
    state: Literal["running", "complete"]
    phase: str
    done: int = 0
    total: int = 0
    batch_size: int = 500
    started_at: datetime
    updated_at: datetime
    report: ResidueReport | None = None
