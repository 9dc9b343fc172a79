"""The messages of a test conversation: one shape for every module that ingests one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta


def messages(t0: datetime, author: str, *, iso: bool = False) -> Callable[..., dict]:
    """`msg(index, text, origin="human_input", role="user", author=author)`: message `index` of a conversation that
    began at `t0`, one minute apart, said by `author` (its time as ISO 8601 text when `iso`, as a request body has
    it)."""
    def msg(index: int, text: str, origin: str = "human_input", role: str = "user", author: str = author) -> dict:
        at = t0 + timedelta(minutes=index)
        return {"index": index, "role": role, "origin": origin, "author": author, "text": text,
                "at": at.isoformat() if iso else at}
    return msg
