"""Extractors: the protocol, a scripted extractor (tests, demo) and one for any OpenAI-compatible endpoint."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from pydantic import ValidationError

from credo.schema.errors import UpstreamFailed
from credo.schema.provenance import Candidate, Proposal
from credo.schema.sources import Source
from credo.services.adapters.llm_client import ChatClient
from credo.settings import Settings


@runtime_checkable
class Extractor(Protocol):
    """Gets one segment and the candidate set so far; returns the complete new set (a Proposal or a list)."""

    def __call__(self, segment: Sequence[Source], candidates: Sequence[Candidate]) -> Proposal | list[Candidate]: ...


def as_proposal(result: Any) -> Proposal:
    """Normalise an extractor's answer (a Proposal, a list of candidates, or their JSON-like data)."""
    try:
        if isinstance(result, Proposal):
            return result
        if isinstance(result, list):
            return Proposal(candidates=[c if isinstance(c, Candidate) else Candidate.model_validate(c) for c in result])
        return Proposal.model_validate(result)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise UpstreamFailed(f"extractor returned a malformed candidate set: {'.'.join(map(str, first['loc']))}: "
                         f"{first['msg']}") from None


Step = Proposal | list[Candidate] | Exception | Callable[[Sequence[Source], Sequence[Candidate]], Any]


class ScriptedExtractor:
    """Replays a script, one step per segment: a proposal, a candidate list, an exception to raise, or a function."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = list(steps)
        self.calls: list[tuple[list[int], list[Candidate]]] = []

    def __call__(self, segment: Sequence[Source], candidates: Sequence[Candidate]) -> Proposal | list[Candidate]:
        """The next scripted step for this segment."""
        self.calls.append(([m.index or 0 for m in segment], list(candidates)))
        if not self.steps:
            return list(candidates)
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if callable(step) and not isinstance(step, (Proposal, list)):
            return step(segment, candidates)
        return step


SYSTEM_PROMPT = """You extract durable facts from a conversation segment for a memory store.
You receive the segment's messages (index, role, origin, author, text) and the candidate facts proposed so far.
Return a JSON object {"candidates": [...], "episode": "..."} holding the COMPLETE new candidate set: keep,
revise or drop earlier candidates in the light of the new messages. Each candidate has:
statement (readable without the conversation), subject, predicate, object, quote (verbatim words of a
human message, or null), source_index (the message position the claim rests on), accepted_index (the
position of the human message that accepted an agent conclusion, or null), kind
(episodic|semantic|procedural|relational).
Only origins human_input and delivered_interjection are human testimony. Silence, a change of topic, a pure
question, a machine event or the agent announcing its own success accept nothing. Keep hedges in the quote.
"episode" summarises what happened in the conversation so far in a few sentences."""


class OpenAIExtractor:
    """An extractor backed by an OpenAI-compatible chat endpoint (base URL, model and key from settings)."""

    def __init__(self, settings: Settings | None = None, *, client: ChatClient | None = None) -> None:
        self.client = client or ChatClient(settings or Settings())

    def __call__(self, segment: Sequence[Source], candidates: Sequence[Candidate]) -> Proposal:
        """Ask the model for the complete new candidate set; a malformed answer fails the extraction."""
        payload = {
            "segment": [{"index": m.index, "role": m.role, "origin": m.origin, "author": m.author, "text": m.text}
                        for m in segment],
            "candidates": [c.model_dump(mode="json") for c in candidates],
        }
        reply = self.client.complete(
            [{"role": "system", "content": SYSTEM_PROMPT},
             {"role": "user", "content": json.dumps(payload, ensure_ascii=False)}],
            json_mode=True,
        )
        try:
            data = json.loads(reply)
        except json.JSONDecodeError as exc:
            raise UpstreamFailed(f"extractor reply is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise UpstreamFailed("extractor reply must be a JSON object with 'candidates'")
        return as_proposal({"candidates": data.get("candidates") or [], "episode": data.get("episode")})

    def close(self) -> None:
        """Close the HTTP client."""
        self.client.close()
