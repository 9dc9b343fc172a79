"""The governance switch of the ablation harness (bench/ablation.py): which of the write gate, the conflict rule and
the served-state filter a Context applies. Internal: every store runs with FULL; no public surface can change it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Governance:
    """What a Context enforces: the gate on remembered quotes, the conflict rule (with dedup and reinforcement)
    on writes, and the served-state and support filter on search."""

    gate: bool = True
    conflict_rule: bool = True
    served_filter: bool = True


FULL = Governance()
NONE = Governance(gate=False, conflict_rule=False, served_filter=False)
