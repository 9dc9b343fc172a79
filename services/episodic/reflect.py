"""`reflect`: read the episodes of a window and propose semantic candidates (DESIGN §9: the two kinds meet at the
reflection boundary, never inside one write).

A reflection writes nothing semantic, and no fact at all: its only write is one ledger event saying that it ran (the
window, how many episodes it read, how many candidates it proposed, which proposer). A proposal becomes semantic
knowledge only through the gate, like any other claim: `remember` with the verbatim quote of a human message,
`add_fact` by a curator, or `extract` then `admit`.

The proposer is the configured extractor when one is composed (the same protocol `extract` calls: each episode is
handed to it as a numbered observation, and its semantic candidates are the proposals), else the deterministic
one: an episode stated at least twice in the window proposes its statement, with the episodes it came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from credo.graph.core import ledger
from credo.schema import commands_episodic as ce
from credo.schema.episodic import EpisodeRef, Reflection, SemanticProposal
from credo.schema.errors import InvalidInput
from credo.schema.facts import Fact
from credo.schema.sources import Source
from credo.services.adapters.extractors import Extractor, as_proposal
from credo.services.core.context import Context
from credo.services.core.unit_of_work import Write
from credo.services.episodic.rules import recurring
from credo.services.episodic.timeline import episodes as read_episodes

SEGMENT = 20  # episodes handed to an extractor at a time (as `extract` hands messages)
MAX_EPISODES = 2_000
"""The most episodes one reflection reads (the read stops one past it); a wider window is refused (narrow it), so no
call reads a tenant's whole episodic memory or runs the extractor's endpoint more than MAX_EPISODES / SEGMENT times."""


def reflect(ctx: Context, cmd: ce.Reflect, *, extractor: Extractor | None = None) -> Reflection:
    """Propose semantic candidates from the episodes of `session` or `entity` within [from_, to) that the caller may
    see; writes nothing semantic (one ledger event records the run). Proposals are admitted only through the gate:
    `remember` with their quote, `add_fact`, or `extract` then `admit`."""
    start, end = (None if p is None else p.at for p in (cmd.from_, cmd.to))
    found = read_episodes(ctx, session=cmd.session, entity=cmd.entity, start=start, end=end, limit=MAX_EPISODES + 1)
    if len(found) > MAX_EPISODES:
        raise InvalidInput("to", f"the window holds more than {MAX_EPISODES} episodes: reflect on a shorter one")
    if extractor is not None:
        proposals, proposer = _extracted(found, extractor), "extractor"
    else:
        proposals, proposer = recurring(found), "recurrence"

    def work(w: Write) -> None:
        ledger.audit(w.tx, ctx.tenant, w.known, [("reflect", cmd.session or cmd.entity, {
            "session": cmd.session, "entity": cmd.entity, "from": None if cmd.from_ is None else str(cmd.from_),
            "to": None if cmd.to is None else str(cmd.to), "episodes": len(found),
            "proposals": len(proposals), "proposer": proposer})])

    ctx.write(work)
    return Reflection(episodes=len(found), proposer=proposer, proposals=proposals)


def _extracted(episodes: Sequence[Fact], extractor: Extractor) -> list[SemanticProposal]:
    """The extractor's semantic candidates over the episodes, each with the episode it points at."""
    sources = as_sources(episodes)
    candidates: list[Any] = []
    for at in range(0, len(sources), SEGMENT):
        candidates = list(as_proposal(extractor(sources[at:at + SEGMENT], list(candidates))).candidates)
    proposals = []
    for c in candidates:
        if c.kind == "episodic" or not 0 <= c.source_index < len(episodes):
            continue
        episode = episodes[c.source_index]
        proposals.append(SemanticProposal(
            statement=c.statement, subject=c.subject, predicate=c.predicate, object=str(c.object),
            episodes=[EpisodeRef(fact_id=episode.fact_id, quote=c.quote or episode.quote)],
            reason="proposed by the extractor"))
    return proposals


def as_sources(episodes: Sequence[Fact]) -> list[Source]:
    """The episodes as the numbered observations an extractor reads (position i is episode i)."""
    return [Source(source_id=e.fact_id, tenant=e.tenant, kind="observation", text=e.statement, index=i,
                   origin="episode", at=e.valid_from or e.known_from, known_from=e.known_from)
            for i, e in enumerate(episodes)]
