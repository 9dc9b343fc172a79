"""A minimal client for any OpenAI-compatible chat-completions endpoint (base URL, model, key from settings)."""

from __future__ import annotations

from typing import Any

import httpx

from credo.schema.errors import ConfigError, UpstreamFailed
from credo.settings import Settings


class ChatClient:
    """POSTs chat messages to `{base_url}/chat/completions` and returns the first choice's text."""

    def __init__(self, settings: Settings, *, timeout_s: float = 60.0, transport: httpx.BaseTransport | None = None) -> None:
        if not settings.llm_base_url or not settings.llm_model:
            raise ConfigError("CREDO_LLM_BASE_URL and CREDO_LLM_MODEL must be set to use an LLM endpoint")
        self.base_url = settings.llm_base_url.rstrip("/")
        self.model = settings.llm_model
        headers = {"Authorization": f"Bearer {settings.llm_api_key}"} if settings.llm_api_key else {}
        self._http = httpx.Client(timeout=timeout_s, headers=headers, transport=transport)

    def complete(self, messages: list[dict[str, str]], *, json_mode: bool = False, temperature: float = 0.0) -> str:
        """The assistant's reply text for `messages`; a CredoError names the endpoint on any failure."""
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        url = f"{self.base_url}/chat/completions"
        try:
            response = self._http.post(url, json=body)
            response.raise_for_status()
            return response.json()["choices"][0]["message"]["content"]
        except (httpx.HTTPError, KeyError, IndexError, ValueError) as exc:
            raise UpstreamFailed(f"LLM endpoint {url} failed: {exc}") from exc

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._http.close()
