"""The utility ledger: served recalls count as neutral; feedback re-classifies one to useful or harmful.

`record_recalls` is the step the read path calls when it hands out a read receipt (in the receipt's own write),
so a served recall costs no extra transaction; `feedback` re-classifies one recall — the same row changes, so one
recall then "useful" nets exactly 1.0; `unknown` is logged in the audit ledger and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from credo.graph.core import ledger
from credo.graph.recall import receipts as receipt_repo
from credo.graph.recall import usage as usage_repo
from credo.graph.core.db import Tx
from credo.schema import commands_ledger as cl
from credo.schema.errors import NotFound
from credo.schema.utility import MemoryUsage, Outcome
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.recall.tier_rules import KINDS, reclassify


def recall_step(tx: Tx, tenant: str, known: datetime, *, receipt_id: str, fact_ids: Sequence[str]) -> int:
    """Inside a write: count the facts a read receipt served as neutral recalls (once per receipt and fact)."""
    counted = usage_repo.record_recalls(tx, tenant, known, receipt_id, list(fact_ids))
    if counted:
        ledger.audit(tx, tenant, known, [("recall", receipt_id, {"facts": list(dict.fromkeys(fact_ids))})])
    return counted


def record_recalls(ctx: Context, *, receipt_id: str, fact_ids: Sequence[str]) -> int:
    """Count a served read receipt's facts as neutral recalls in their own write (for callers outside a write)."""
    return ctx.write(lambda w: recall_step(w.tx, ctx.tenant, w.known, receipt_id=receipt_id, fact_ids=fact_ids))


def feedback(ctx: Context, cmd: cl.Feedback) -> MemoryUsage:
    """Re-classify the recall of `fact_id` by `receipt_id`; answers the memory's utility ledger afterwards."""
    receipt_id, fact_id, outcome, reason = cmd.receipt_id, cmd.fact_id, cmd.outcome, cmd.reason

    def work(w: Write) -> None:
        tx, known = w.tx, w.known
        found = usage_repo.recall(tx, ctx.tenant, receipt_id, fact_id)
        if found is None or not receipt_repo.fact_exists(tx, ctx.tenant, fact_id):  # not one it may see: as missing
            raise NotFound("recall", f"{receipt_id}/{fact_id}")
        old, utility = found
        detail = {"receipt_id": receipt_id, "from": old, "to": outcome, "reason": reason}
        if outcome != Outcome.UNKNOWN and outcome != old:
            usage_repo.classify(tx, ctx.tenant, known, receipt_id, fact_id, outcome, reclassify(utility, old, outcome))
        ledger.audit(tx, ctx.tenant, known, [("feedback", fact_id, detail)])

    ctx.write(work)
    return _memory(ctx, fact_id)


def memory(ctx: Context, cmd: cl.UtilityQuery) -> MemoryUsage:
    """One memory's tier, use counts and net utility (tier working until the first sweep places it)."""
    return _memory(ctx, cmd.fact_id)


def _memory(ctx: Context, fact_id: str) -> MemoryUsage:
    """The memory's utility ledger as the caller may see it; NotFound for a fact it may see no version of."""

    def work(tx: Tx) -> list[MemoryUsage]:
        # a fact of which the caller may see no version answers as a missing one
        return usage_repo.memories(tx, ctx.tenant, sorted(KINDS), fact_id) if receipt_repo.fact_exists(
            tx, ctx.tenant, fact_id) else []

    found = ctx.read(work)
    if not found:
        raise NotFound("memory", fact_id)
    return found[0]
