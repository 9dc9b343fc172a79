"""Pure rules of episodic memory: an episode's workflow, its TTL, when it is due to roll off, and the deterministic
proposer of reflection (an episode that recurs in the window proposes its statement as a semantic candidate)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from credo.schema.episodic import DEFAULT_WORKFLOW, EpisodeRef, SemanticProposal
from credo.schema.facts import Fact

RECURS = 2
"""An episode stated this many times in a reflection's window proposes its statement as a semantic candidate."""


def workflow_of(scope: dict[str, str] | None) -> str:
    """An episode's kind of workflow: its `scope["workflow"]`, else "default"."""
    return (scope or {}).get("workflow") or DEFAULT_WORKFLOW


def aged_from(valid_from: datetime | None, known_from: datetime) -> datetime:
    """Where an episode's age is measured from: when it happened (valid_from), or when the store learned it
    (known_from) if nobody said when it happened."""
    return valid_from if valid_from is not None else known_from


def due(valid_from: datetime | None, known_from: datetime, ttl: timedelta, now: datetime) -> bool:
    """Whether an episode is past its TTL at `now` (an age equal to the TTL is past it)."""
    return now - aged_from(valid_from, known_from) >= ttl


def _key(fact: Fact) -> tuple[str, str, str]:
    return (fact.subject_id, fact.predicate, fact.object.value if fact.object.type != "entity"
            else fact.object.entity_id or fact.object_name)


def recurring(episodes: Sequence[Fact], *, at_least: int = RECURS) -> list[SemanticProposal]:
    """The deterministic proposer: each (subject, predicate, object) stated by at least `at_least` episodes in the
    window proposes the earliest one's statement, with every episode it came from (in time order)."""
    groups: dict[tuple[str, str, str], list[Fact]] = {}
    for episode in episodes:
        groups.setdefault(_key(episode), []).append(episode)
    proposals = []
    for group in groups.values():
        if len(group) < at_least:
            continue
        first = group[0]
        proposals.append(SemanticProposal(
            statement=first.statement, subject=first.subject, predicate=first.predicate, object=first.object_name,
            episodes=[EpisodeRef(fact_id=e.fact_id, quote=e.quote) for e in group],
            reason=f"recurs {len(group)} times in the window"))
    return proposals
