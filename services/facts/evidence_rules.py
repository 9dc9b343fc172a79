"""Pure rules of evidence by consequence and of weak relations (DESIGN §9, §11; issue 27). No driver.

**Evidence by consequence.** A rule marked `operational` (it can change production) needs direct evidence: a source
of kind tool_result, code, test or log, or a message whose origin is tool_result (a tool's own output; see
`schema/sources.py` `is_direct`). Written without one, it is held as a hypothesis whatever its evidence kind says
(`held`): a conversation or a reflection alone cannot confirm it. The hold is stored on the version
(`evidence_hold`), so a hedge is told apart from a missing source: citing a direct source under a held version
confirms it in a new version (services/gate/sources.py `cite`), a hedged one stays a hypothesis. What is missing is
computed when read, from the sources the reader may see (`missing_evidence`).

**Weak relations.** A relation (an entity → entity fact, or a fact of kind relational) asserted once by one tool call
is weak: no human stated it (evidence unknown), every source it has is one tool call's output, and it counts at most
one independent source. Computed when read (`weak`), never stored: a second independent source (a second tool call,
a document, a person) corroborates it and it is no longer weak.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from credo.schema.facts import Epistemic, Evidence, Fact
from credo.schema.sources import is_direct, is_tool_call
from credo.services.facts.dedup_rules import independence_key

MISSING_DIRECT = "direct evidence: a tool_result, code, test or log source"
WEAK_TEXT = "weak: asserted once by one tool call"


def held(epistemic: Epistemic | str, *, operational: bool, direct: bool = False) -> tuple[Epistemic, bool]:
    """(epistemic status, held) of a version written with `epistemic`: an operational rule with no direct source is
    a hypothesis, and `held` says the missing source (not a hedge) is what made it one."""
    status = Epistemic(epistemic)
    if operational and not direct and status == Epistemic.CONFIRMED:
        return Epistemic.HYPOTHESIS, True
    return status, False


def confirms(fact: Fact, source: Mapping[str, Any]) -> bool:
    """Whether citing `source` under `fact` lifts its hold: it is held for evidence and the source is direct."""
    return fact.operational and fact.evidence_hold and is_direct(source.get("kind"), source.get("origin"))


def has_direct(sources: Iterable[Mapping[str, Any]]) -> bool:
    """Whether any of these sources is direct evidence."""
    return any(is_direct(s.get("kind"), s.get("origin")) for s in sources)


def missing_evidence(fact: Fact, sources: Iterable[Mapping[str, Any]]) -> str | None:
    """What evidence an operational rule still lacks (None: nothing, or not operational)."""
    if not fact.operational or has_direct(sources):
        return None
    return MISSING_DIRECT


def relational(fact: Fact) -> bool:
    """Whether a fact is a relation: its object is an entity, or its kind is relational."""
    return fact.kind == "relational" or fact.object.type == "entity"


def may_be_weak(fact: Fact) -> bool:
    """Whether a fact could be weak before its sources are read (so a read needs no source query otherwise)."""
    return relational(fact) and fact.evidence == Evidence.UNKNOWN and fact.independent_sources <= 1


def weak(fact: Fact, sources: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a relation is weak: asserted once by one tool call, with no other source and no human's word."""
    found = [dict(s) for s in sources]
    if not may_be_weak(fact) or not found:
        return False
    if len({independence_key(s) for s in found}) != 1:
        return False
    return all(is_tool_call(s.get("kind"), s.get("origin")) for s in found)
