"""Merge near-duplicate facts into one canonical fact: evidence never gets stronger, no source is dropped."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from credo.graph import facts as fact_repo
from credo.graph import ledger
from credo.graph.db import Tx
from credo.schema.errors import InvalidInput
from credo.schema.facts import EndKind, Epistemic, Fact, weakest
from credo.schema.lifecycle import SERVED, State
from credo.services import record_fact
from credo.services.context import Context
from credo.services.versions import retire, the_current


def merged_shape(inputs: list[Fact]) -> dict[str, object]:
    """Evidence, epistemic status and state of a merge: the weakest of each (pure rule)."""
    hypothesis = any(f.epistemic == Epistemic.HYPOTHESIS for f in inputs)
    served = all(State(f.state) in SERVED for f in inputs)
    return {
        "evidence": weakest([f.evidence.value for f in inputs]),
        "epistemic": Epistemic.HYPOTHESIS if hypothesis else Epistemic.CONFIRMED,
        "state": State.ACTIVE if served else State.CANDIDATE,
    }


def merge_facts(ctx: Context, *, fact_ids: Sequence[str], statement: str) -> Fact:
    """One canonical fact from several: the inputs are superseded, their sources and premises carried over."""
    if isinstance(fact_ids, str) or len(set(fact_ids)) < 2:
        raise InvalidInput("fact_ids", "name at least two different facts to merge")
    if not isinstance(statement, str) or not statement.strip():
        raise InvalidInput("statement", "the merged fact needs a statement")

    def work(tx: Tx, known: datetime) -> Fact:
        inputs = [the_current(tx, ctx.tenant, ref) for ref in dict.fromkeys(fact_ids)]
        first = inputs[0]
        shape = merged_shape(inputs)
        retire(tx, known, [(f, EndKind.MERGE.value, f"merged into a canonical fact ({len(inputs)} inputs)") for f in inputs])
        data = record_fact.validate(
            subject=first.subject, predicate=first.predicate,
            object=first.object_name if first.object.type == "entity" else first.object.typed(),
            object_is_entity=first.object.type == "entity", scope=first.scope, kind=first.kind,
            statement=statement.strip(), evidence=shape["evidence"], epistemic=shape["epistemic"],
            valid_from=first.valid_from, valid_to=first.valid_to,
        )
        merged = record_fact.record(tx, ctx, known, [data], state=shape["state"])[0]
        fact_repo.carry_edges(tx, known, [(f.version_id, merged.version_id) for f in inputs])
        fact_repo.link_supersedes(tx, known, [(merged.version_id, f.version_id, "merge", None) for f in inputs])
        ledger.audit(tx, ctx.tenant, known, [("merge_facts", merged.fact_id, {
            "version_id": merged.version_id, "inputs": [f.version_id for f in inputs],
            "evidence": merged.evidence.value})])
        return merged

    return ctx.write(work)
