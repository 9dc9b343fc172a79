"""The LLM verifier: asks an OpenAI-compatible endpoint (the extractor's client, services/adapters/llm_client.py)
for a verdict in a strict JSON shape; an answer that is not that shape is recorded as unsupported, naming what the
verifier answered, never guessed into a verdict."""

from __future__ import annotations

import json
from typing import Any

from credo.schema.verify import OVERREACH_KINDS, VERDICTS, Excerpt, Verdict
from credo.services.adapters.llm_client import ChatClient
from credo.services.verify.limits import TenantBound
from credo.settings import Settings

PROMPT = (
    "You check whether a STATEMENT says no more than its SOURCE (a verbatim quote and the message it came from). "
    "Answer only a JSON object with exactly the keys verdict, overreach_kind, reason. verdict is one of "
    "\"supported\", \"overreach\", \"unsupported\". overreach_kind is null unless verdict is \"overreach\", then one "
    "of \"hedge_dropped\" (the source hedges, e.g. 'maybe', the statement is certain), \"once_to_always\" (the source "
    "speaks of one occasion, the statement of always or never), \"scope_widened\" (the statement covers more than "
    "the source's scope), \"condition_dropped\" (the source holds under a condition the statement drops). reason is "
    "one short sentence."
)
KEYS = {"verdict", "overreach_kind", "reason"}
SHOWN = 200  # characters of a malformed answer kept in the reason


def parse(content: str) -> Verdict:
    """The verdict in an answer of the strict shape; anything else is unsupported, naming what was answered."""
    try:
        data: Any = json.loads(content)
    except ValueError:
        data = None
    ok = (isinstance(data, dict) and set(data) == KEYS and data["verdict"] in VERDICTS
          and isinstance(data["reason"], str) and data["reason"].strip()
          and ((data["verdict"] == "overreach" and data["overreach_kind"] in OVERREACH_KINDS)
               or (data["verdict"] != "overreach" and data["overreach_kind"] is None)))
    if not ok:
        return Verdict(verdict="unsupported", reason=f"the verifier answered {content[:SHOWN]!r}, not a verdict")
    return Verdict(verdict=data["verdict"], overreach_kind=data["overreach_kind"], reason=data["reason"].strip())


class LLMVerifier:
    """The verifier over an OpenAI-compatible endpoint (CREDO_VERIFIER=llm, CREDO_LLM_BASE_URL, CREDO_LLM_MODEL)."""

    name = "llm"

    def __init__(self, settings: Settings | None = None, *, client: ChatClient | None = None) -> None:
        settings = settings or Settings()
        self._client = client or ChatClient(settings)
        # each call costs: the service holds a slot of this bound per tenant around it (services/verify/limits.py)
        self.bound = TenantBound(per_minute=settings.verifier_per_minute, concurrent=settings.verifier_concurrency)

    def verify(self, statement: str, excerpt: Excerpt) -> Verdict:
        """Ask the endpoint; an endpoint that fails raises UpstreamFailed (nothing is recorded)."""
        user = json.dumps({"statement": statement, "quote": excerpt.quote, "message": excerpt.text},
                          ensure_ascii=False)
        content = self._client.complete([{"role": "system", "content": PROMPT}, {"role": "user", "content": user}],
                                        json_mode=True)
        return parse(content)

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()
