"""Summarizers: turn a topic and the exact input versions into a derived text (deterministic or via an LLM)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from credo.schema.cascade import SummaryInput
from credo.services.adapters.llm_client import ChatClient


@runtime_checkable
class Summarizer(Protocol):
    """Anything that writes a summary text from a topic and its inputs; `name` is recorded on the summary."""

    name: str

    def summarize(self, topic: str, inputs: list[SummaryInput]) -> str:
        """The summary text for `topic` built from `inputs` only."""
        ...


class ListSummarizer:
    """Deterministic: the topic, then one bullet per input in the given order (tests and the demo)."""

    name = "list"

    def summarize(self, topic: str, inputs: list[SummaryInput]) -> str:
        """'topic:' followed by '- text' lines."""
        return "\n".join([f"{topic}:"] + [f"- {item.text}" for item in inputs])


PROMPT = (
    "Write '{topic}' as a short list of notes. Use only the numbered inputs below; keep every condition, scope and "
    "hedge they state; add nothing they do not say. Answer with the notes only.\n\n{inputs}"
)


class ChatSummarizer:
    """Any OpenAI-compatible chat endpoint (via ChatClient); temperature 0 for repeatable output."""

    def __init__(self, client: ChatClient, *, name: str | None = None) -> None:
        self.client = client
        self.name = name or f"chat:{client.model}"

    def summarize(self, topic: str, inputs: list[SummaryInput]) -> str:
        """The endpoint's answer to the summary prompt, stripped."""
        numbered = "\n".join(f"{i}. {item.text}" for i, item in enumerate(inputs, 1))
        messages = [{"role": "system", "content": "You summarise facts faithfully for an engineering team."},
                    {"role": "user", "content": PROMPT.format(topic=topic, inputs=numbered)}]
        return self.client.complete(messages).strip()
