"""The LLM verifier against a local OpenAI-compatible server (a real socket, canned answers): a well-formed answer
is the verdict; a malformed one is unsupported, naming what the verifier answered."""

from __future__ import annotations

import json

import pytest

from credo.schema.errors import UpstreamFailed
from credo.schema.verify import Excerpt
from credo.services.verify.llm import LLMVerifier
from credo.settings import Settings

EXCERPT = Excerpt(quote="don't migrate the orders table while API v1 reads it",
                  text="heads up: don't migrate the orders table while API v1 reads it")


def verifier(url: str) -> LLMVerifier:
    return LLMVerifier(Settings(llm_base_url=url, llm_model="judge-1"))


def test_a_well_formed_answer_is_the_verdict_and_the_request_carries_statement_and_excerpt(chat_endpoint):
    answer = {"verdict": "overreach", "overreach_kind": "condition_dropped", "reason": "drops 'while API v1 reads it'"}
    with chat_endpoint([json.dumps(answer)]) as replay:
        v = verifier(replay.url)
        verdict = v.verify("Never migrate the orders table", EXCERPT)
        v.close()
    assert (verdict.verdict, verdict.overreach_kind, verdict.reason) == (
        "overreach", "condition_dropped", "drops 'while API v1 reads it'")
    body = replay.requests[0]["body"]
    assert replay.requests[0]["path"].endswith("/chat/completions")
    assert body["model"] == "judge-1" and body["response_format"] == {"type": "json_object"}
    asked = json.loads(body["messages"][-1]["content"])
    assert asked == {"statement": "Never migrate the orders table", "quote": EXCERPT.quote, "message": EXCERPT.text}


def test_a_supported_answer(chat_endpoint):
    with chat_endpoint([json.dumps({"verdict": "supported", "overreach_kind": None, "reason": "says the same"})]) as r:
        assert verifier(r.url).verify("x", EXCERPT).verdict == "supported"


@pytest.mark.parametrize("content", [
    "I think it is fine",  # not JSON
    json.dumps(["supported"]),  # not an object
    json.dumps({"verdict": "certain", "overreach_kind": None, "reason": "r"}),  # no such verdict
    json.dumps({"verdict": "overreach", "overreach_kind": None, "reason": "r"}),  # over-reach without its kind
    json.dumps({"verdict": "supported", "overreach_kind": "hedge_dropped", "reason": "r"}),  # a kind on supported
    json.dumps({"verdict": "supported", "overreach_kind": None, "reason": ""}),  # no reason
    json.dumps({"verdict": "supported", "overreach_kind": None, "reason": "r", "confidence": 0.9}),  # an extra key
])
def test_a_malformed_answer_is_unsupported_naming_what_the_verifier_answered(chat_endpoint, content):
    with chat_endpoint([content]) as replay:
        verdict = verifier(replay.url).verify("Never migrate the orders table", EXCERPT)
    assert verdict.verdict == "unsupported" and verdict.overreach_kind is None
    assert verdict.reason.startswith("the verifier answered ") and content[:20] in verdict.reason


def test_an_endpoint_that_fails_raises_and_gives_no_verdict():
    with pytest.raises(UpstreamFailed):
        LLMVerifier(Settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="m")).verify("x", EXCERPT)
