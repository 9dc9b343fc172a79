"""Limits on what a request may carry before anything parses it: the body's size and its JSON nesting.

`BodyLimit` (pure ASGI, so streaming answers stay streaming) reads a request's body up to the limit and answers a
413 problem document past it — without reading the rest — then hands the body on. A JSON body nested deeper than
MAX_JSON_DEPTH levels answers a 422 problem naming `body`, so no parser recurses on it. Defaults (README,
"Limits"): 4 MiB a request, 64 MiB for the bulk routes (`POST /v1/facts/batch`, `POST /v1/facts/import`), set with
CREDO_MAX_BODY_BYTES and CREDO_MAX_BULK_BODY_BYTES.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from credo.api.problems import PROBLEM_MEDIA_TYPE, Problem, problem_for
from credo.schema.errors import InvalidInput

MAX_JSON_DEPTH = 64
BULK_PATHS = frozenset({"/v1/facts/batch", "/v1/facts/import"})

_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def too_deep(text: bytes | str) -> bool:
    """Whether a JSON text nests lists and objects deeper than MAX_JSON_DEPTH levels (brackets in strings aside)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw.translate(None, _NOT_BRACKETS)) <= MAX_JSON_DEPTH:  # too few brackets to nest too deeply
        return False
    # outside the strings: escaped backslashes, then escaped quotes, go first; every quote left opens or closes one
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    structure = b"".join(unescaped.split(b'"')[::2]).translate(None, _NOT_BRACKETS)
    brackets = structure
    for _ in range(MAX_JSON_DEPTH // 2):  # each pass drops the innermost one or two levels, in C
        if not brackets:
            return False  # at most two levels a pass: no deeper than the limit
        brackets = brackets.replace(b"[]", b"").replace(b"{}", b"")
    depth = 0
    for b in structure:  # rare: more than half the limit deep (or unbalanced, which the parser then names)
        depth += 1 if b in b"[{" else -1
        if depth > MAX_JSON_DEPTH:
            return True
    return False


class BodyLimit:
    """Pure ASGI: a body past its route's limit answers 413, a JSON body nested too deeply 422, both as problems."""

    def __init__(self, app: Any, *, max_bytes: int, bulk_bytes: int, bulk_paths: Collection[str] = BULK_PATHS) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.bulk_bytes = bulk_bytes
        self.bulk_paths = frozenset(bulk_paths)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.bulk_bytes if scope.get("path") in self.bulk_paths else self.max_bytes
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"").decode("latin-1")
        if declared.isdigit() and int(declared) > limit:
            await _answer(scope, send, _too_large(limit, scope, self.bulk_paths))
            return
        chunks: list[bytes] = []
        size = 0
        trailing: list[dict] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                trailing.append(message)  # the client left: the app sees it as it would have
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _answer(scope, send, _too_large(limit, scope, self.bulk_paths))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        content_type = headers.get(b"content-type", b"application/json").decode("latin-1").lower()
        if body and "json" in content_type and too_deep(body):
            refusal = InvalidInput("body", f"JSON nests deeper than {MAX_JSON_DEPTH} levels")
            await _answer(scope, send, problem_for(refusal, request_id=_request_id(scope)))
            return
        replay = [{"type": "http.request", "body": body, "more_body": False}, *trailing]

        async def replayed() -> dict:
            return replay.pop(0) if replay else await receive()

        await self.app(scope, replayed, send)


def _request_id(scope: dict) -> str | None:
    return (scope.get("state") or {}).get("request_id")


def _too_large(limit: int, scope: dict, bulk_paths: Collection[str]) -> Problem:
    setting = "CREDO_MAX_BULK_BODY_BYTES" if scope.get("path") in bulk_paths else "CREDO_MAX_BODY_BYTES"
    detail = f"the request body is larger than {limit:,} bytes ({setting}); send it in smaller parts"
    return Problem(type="urn:credo:problem:too_large", title="Request body too large", status=413, detail=detail,
                   code="too_large", rule=f"at most {limit} bytes", request_id=_request_id(scope))


async def _answer(scope: dict, send: Any, problem: Problem) -> None:
    body = json.dumps(problem.model_dump(), ensure_ascii=False).encode("utf-8")
    await send({"type": "http.response.start", "status": problem.status, "headers": [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
