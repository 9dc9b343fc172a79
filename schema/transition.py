"""The transition check's shapes (DESIGN.md §11): for the writes made between two known times, whether each asked
change happened (coverage), whether every change of belief is explained by a write or its cascade (preservation),
and whether what was added is grounded in a source (faithfulness); with the ledger events and grounding rows the
rule reads."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field


class FindingKind(StrEnum):
    """Why a finding was made."""

    MISSING = "missing"  # coverage: a write asked for a change the belief diff does not show
    UNEXPLAINED = "unexplained"  # preservation: a change no write of its known time names (nor its cascade)
    UNGROUNDED = "ungrounded"  # faithfulness: a version added with no quote, source or acceptance


class TransitionFinding(BaseModel):
    """One finding: the write's ledger event (None for a change no event explains), the fact and version, and why."""

    model_config = ConfigDict(frozen=True)

    kind: FindingKind
    at: datetime  # the known time of the write (or of the unexplained change)
    event_id: str | None = None
    operation: str | None = None
    fact_id: str | None = None
    version_id: str | None = None
    why: str


class DimensionReport(BaseModel):
    """One dimension's verdict: ok when no finding fails it, how many items were checked, and the findings."""

    ok: bool
    checked: int = 0
    findings: list[TransitionFinding] = Field(default_factory=list)


class TransitionReport(BaseModel):
    """The transition check of the writes in (known_before, known_after], as the caller may see them.

    `withheld` counts the ledger events and changed versions of the window the caller is not cleared to see: they
    are left out of every dimension (never named), so the verdicts are complete only when it is 0 (`complete`)."""

    known_before: datetime
    known_after: datetime
    events: int = 0  # the ledger events of the window the caller may see
    changes: int = 0  # the changes of the belief diff of the window the caller may see
    coverage: DimensionReport
    preservation: DimensionReport
    faithfulness: DimensionReport
    withheld: int = 0
    withheld_note: str | None = None  # e.g. "3 changes you are not cleared to see were not checked"
    strict: bool = False

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        """All three dimensions hold (for what the caller may see)."""
        return self.coverage.ok and self.preservation.ok and self.faithfulness.ok

    @computed_field  # type: ignore[prop-decorator]
    @property
    def complete(self) -> bool:
        """Nothing of the window was withheld from the caller."""
        return self.withheld == 0


# -- what the repository reads (graph/truth/transition.py), judged by services/truth/transition_rules.py ---------
class WindowEvent(BaseModel):
    """One ledger event of the window the caller may see: its known time, operation, ids and content-free detail."""

    model_config = ConfigDict(frozen=True)

    event_id: str
    seq: int | None = None
    at: datetime
    operation: str
    subject_id: str | None = None
    ids: list[str] = Field(default_factory=list)
    detail: dict[str, Any] = Field(default_factory=dict)


class Grounding(BaseModel):
    """What grounds one version: its quoted sources, its other sources, and the messages that accepted it."""

    model_config = ConfigDict(frozen=True)

    version_id: str
    quotes: int = 0
    sources: int = 0
    accepted: int = 0

    @property
    def grounded(self) -> bool:
        """A quote, a source or an acceptance stands behind it."""
        return bool(self.quotes or self.sources or self.accepted)
