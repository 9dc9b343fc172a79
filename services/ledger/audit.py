"""`audit` reads the tenant's ledger with filters and a cursor; `verify_ledger` re-walks its hash chain.

Clearance: the ledger records every act on content of every label, with its reasons (free text a caller wrote,
e.g. why a secret fact was forgotten) and ids, so `audit` needs clearance `all` (Forbidden, field `clearance`,
otherwise, on every surface). `verify_ledger` answers counts, positions and event ids only: it stays an `admin`
scope read at any clearance.

Events written before the chain existed (stores older than issue 12) are not re-hashed by a migration, which
would vouch for history nobody can check: `verify_ledger` counts them as `unchained` and reports the instant the
chain starts (`chain_starts_at`); an unchained event dated after that instant is reported as inserted.
"""

from __future__ import annotations

from datetime import datetime

from credo.graph.core import ledger
from credo.graph.core.db import Tx
from credo.schema import commands_ledger as cl
from credo.schema.errors import InvalidInput
from credo.schema.ledger import AuditPage, LedgerReport, redacted
from credo.schema.time import parse_instant
from credo.services.core.clearance import everything
from credo.services.core.context import Context
from credo.services.ledger.rules import check_chain, unchained_problems

MAX_LIMIT = 10_000
DEFAULT_LIMIT = 1_000
_BATCH = 5_000


def audit(ctx: Context, cmd: cl.AuditQuery) -> AuditPage:
    """Ledger events in chain order matching every filter given, at most `limit` (default 1000); `after` is the
    seq to continue after, and the page's `next_after` the cursor of the next page (null on the last). Only for a
    caller cleared for all: events carry free-text reasons and the ids of every label (Forbidden otherwise)."""
    operation, id, actor, after, limit = cmd.operation, cmd.id, cmd.actor, cmd.after, cmd.limit
    from_time, to_time = cmd.from_time, cmd.to_time
    everything(ctx.clearance, "read the audit ledger")
    if limit is not None and not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be between 1 and {MAX_LIMIT}")
    if after is not None and after < 0:
        raise InvalidInput("after", "must be a ledger position (seq) of 0 or more")
    start = None if from_time is None else parse_instant(from_time, "from_time")
    end = None if to_time is None else parse_instant(to_time, "to_time")
    size = limit or DEFAULT_LIMIT
    found = ctx.read(lambda tx: ledger.events(tx, ctx.tenant, operation=operation, id=id, actor=actor,
                                              from_time=start, to_time=end, after=after or 0, limit=size + 1))
    items = found[:size]
    return AuditPage(items=items, next_after=items[-1].seq if len(found) > size else None)


def verify_ledger(ctx: Context, cmd: cl.VerifyLedger) -> LedgerReport:
    """Re-hash every chained event and check every link and the head; name each changed, inserted or removed one."""

    def work(tx: Tx) -> LedgerReport:
        head_seq, head_hash = ledger.head(tx, ctx.tenant)
        rows, after = [], 0
        while True:
            batch = ledger.chain_batch(tx, ctx.tenant, after=after, limit=_BATCH)
            rows += batch
            if len(batch) < _BATCH:
                break
            after = int(batch[-1]["seq"])
        start: datetime | None = min((r["at"] for r in rows), default=None)
        legacy, inserted = unchained_problems(ledger.chain_batch(tx, ctx.tenant, after=0, limit=10 ** 9,
                                                                 unchained=True), start)
        problems = check_chain(rows, head_seq=head_seq, head_hash=head_hash) + inserted
        return LedgerReport(ok=not problems, events=len(rows), unchained=legacy, chain_starts_at=start,
                            head_seq=head_seq, redacted=sum(1 for r in rows if redacted(r)), problems=problems)

    return ctx.read(work)
