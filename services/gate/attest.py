"""Who vouches for a human message: the tenant flag `attested_human_messages` (off by default).

The gate admits only what a human message says (DESIGN §3), and a message is human because its origin says so. In the
common MCP setup the agent relays the person's turn itself, so the agent's key could also ingest words no person
wrote and then quote them, or relay a "yes" nobody gave. Every human message therefore records who vouched for it
(`attested_by`: the acting key `key:<id>`, or the local principal `local:<user>`), whatever the flag says, so an audit
can tell later. A deployment whose harness (the application that really receives the person's input) holds its own
key turns the flag on; from the write's known time on:

- ingesting a message of a human origin needs a principal holding the `attest` scope (the `harness` and `operator`
  presets); without it the whole batch is refused (Forbidden, field `attest`) and nothing is written;
- the gate (`remember`'s quote), acceptance and consent (a fact's and a recipe's) refuse a human message vouched for by
  the principal now quoting or consenting: the agent cannot vouch for the words it then uses.

A principal holding `curate` is not bound by the second rule: it may record a fact directly, without any quote, so the
rule would protect nothing against it, and a single-user setup (the library, the CLI, `credo mcp` without a key, an
operator's or a curator's key) keeps quoting the messages it ingests itself. Messages ingested before `attested_by`
was recorded carry none and are not refused by it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from credo.graph.core.db import Tx
from credo.graph.core import tenant_flags as flag_repo
from credo.schema.errors import EvidenceRefused, Forbidden
from credo.schema.sources import HUMAN_ORIGINS, Source
from credo.services.core.context import Context

FLAG = "attested_human_messages"
SCOPE = "attest"
UNBOUND = "curate"  # who may write facts without the gate is not bound by the rule against self-vouched messages


def on(tx: Tx, tenant: str, known: datetime) -> bool:
    """Whether the tenant flag is on at `known`."""
    return flag_repo.flag(tx, tenant, FLAG, known)[0]


def voucher(ctx: Context, origin: str) -> str | None:
    """Who a message of `origin` ingested now is vouched for by: the acting principal for human testimony, else
    nobody (the ledger still records who ingested it)."""
    return ctx.actor if origin in HUMAN_ORIGINS else None


def check_ingest(tx: Tx, ctx: Context, known: datetime, origins: Iterable[str]) -> None:
    """Refuse (Forbidden naming `attest` and the flag) a batch holding human testimony from a principal without the
    `attest` scope while the flag is on; called before anything of the batch is written."""
    human = sorted(set(origins) & HUMAN_ORIGINS)
    if not human or SCOPE in ctx.scopes or not on(tx, ctx.tenant, known):
        return
    raise Forbidden(SCOPE, f"ingest_messages with origin {human[0]!r} needs the {SCOPE!r} scope while the tenant flag "
                           f"{FLAG!r} is on: only the application that receives the person's input (a key of the "
                           "`harness` preset) vouches for human messages; nothing of the batch was written")


def check_vouched(tx: Tx, ctx: Context, known: datetime, messages: Iterable[Source], *, field: str, use: str) -> None:
    """Refuse (EvidenceRefused naming `field`, the message and the rule) a human message vouched for by the principal
    now using it as evidence (`use`: "quote", "consent", "accept"), while the flag is on and the principal does not
    hold `curate`."""
    if UNBOUND in ctx.scopes:
        return
    own = [m for m in messages if m.human and m.attested_by is not None and m.attested_by == ctx.actor]
    if not own or not on(tx, ctx.tenant, known):
        return
    m = own[0]
    raise EvidenceRefused(field, f"message #{m.index} ({m.source_id}) was ingested and vouched for by this key "
                                 f"({ctx.actor}); while the tenant flag {FLAG!r} is on, a key cannot {use} with a "
                                 "human message it vouched for itself: the person's words come through the harness "
                                 "that received them")
