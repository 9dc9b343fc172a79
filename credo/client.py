"""`credo.Client`: the Store's API over HTTP — same method names, same arguments, same return models and errors.

Methods are generated from the operation registry and bound with the Store method's own signature, so code moves
between embedded and remote use by changing one line (`credo.connect(...)` → `credo.Client(url, key)`). Lists are
fetched page by page until `next_cursor` is null, so a list is never cut short. The extractor and summarizer
arguments are the server's own: a client cannot send code.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
from pydantic import TypeAdapter
from pydantic_core import to_jsonable_python

from credo.api.problems import error_for
from credo.schema.cascade import CascadeReport
from credo.schema.errors import CredoError, DatabaseUnavailable
from credo.schema.facts import wire_object
from credo.schema.operations import OPERATIONS, Operation
from credo.store import Store

_SERVER_SIDE = {"extractor", "summarizer"}


class Client:
    """A handle on a remote Credo service, bound to the tenant of its API key."""

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout_s: float = 60.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        headers = {"X-API-Key": api_key} if api_key else {}
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout_s, transport=transport)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def health(self) -> dict[str, Any]:
        """The server's /health answer."""
        return self._send("GET", "/health").json()

    def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            raise DatabaseUnavailable(self.base_url, f"the Credo server did not answer ({exc})") from exc
        if response.status_code >= 400:
            try:
                problem = response.json()
            except ValueError:
                raise CredoError(f"HTTP {response.status_code} from {path}: {response.text[:200]}") from None
            raise error_for(problem)
        return response

    def _call(self, op: Operation, fields: dict[str, Any]) -> Any:
        if op.name == "import_facts" and "progress" in fields:  # a callable stays here: told of each batch after
            progress = fields.pop("progress")
            return _told(progress, self._call(op, fields))
        fields = {k: v for k, v in fields.items() if k not in _SERVER_SIDE}
        path = op.path
        for name in op.path_params:  # "/" too is escaped: "CI/CD" reaches /v1/entities/CI%2FCD/relations
            value = quote(str(fields.pop(name)), safe="")
            path = re.sub(r"\{" + name + r"(:path)?\}", lambda _: value, path)
        data = to_jsonable_python(_typed_objects(fields))
        params = {k: _query_value(k, v) for k, v in data.items() if v is not None}
        if op.as_of:  # the pages of the as-of answer, one model on every surface, make the Store's AsOf
            return self._as_of(op, path, params)
        adapter = TypeAdapter(op.returns)
        if op.http_method == "POST":
            answer = self._send("POST", path, json=data).json()
            if not op.write:  # a POST that is no write (maintain) answers its result itself
                return adapter.validate_python(answer)
            result = adapter.validate_python(answer["result"])
            return _with_cascade(result, answer.get("cascade"))
        if not (op.paged and not op.write):
            return adapter.validate_python(self._send("GET", path, params=params).json())
        items: list[Any] = []
        for body in self._pages(path, params):
            items += body["items"]
        return adapter.validate_python(items)

    def _pages(self, path: str, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """Every page of a listing, in order, until `next_cursor` is null."""
        cursor = None
        while True:
            page = self._send("GET", path, params=params | {"limit": 200} | ({"cursor": cursor} if cursor else {}))
            body = page.json()
            yield body
            cursor = body.get("next_cursor")
            if not cursor:
                return

    def _as_of(self, op: Operation, path: str, params: dict[str, Any]) -> Any:
        """An as-of read's pages joined into one AsOfAnswer (dated items, undated apart, skipped rows named), then
        the Store's AsOf made from it."""
        model = op.as_of
        whole = model(items=[])
        for body in self._pages(path, params):
            page = model.model_validate(body)
            whole.items += page.items
            whole.undated += page.undated
            # a page cut from the whole answer names all its skipped versions, a window those it passed over
            whole.unreadable += [u for u in page.unreadable if u not in whole.unreadable]
        return whole.as_of()


def _told(progress: Any, report: Any) -> Any:
    """Tell `progress` of each committed batch of an import's report (the server ran it in one request)."""
    if callable(progress):
        for batch in report.batches:
            if batch.committed:
                progress(batch)
    return report


def _typed_objects(fields: dict[str, Any]) -> dict[str, Any]:
    """Objects sent so the server reads them with their type: a literal (number, date, `credo.text`) as a typed
    literal `{type, value}`, in the fields and in each row of a batch (JSON alone would send a date as a name)."""
    out = dict(fields)
    if out.get("object") is not None:
        out["object"] = wire_object(out["object"])
    if isinstance(out.get("rows"), list):
        out["rows"] = [_typed_objects(r) if isinstance(r, dict) else r for r in out["rows"]]
    return out


def _query_value(name: str, value: Any) -> Any:
    if name == "scope" or isinstance(value, dict):  # a scope, or a typed literal object: JSON text
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _with_cascade(result: Any, cascade: Any) -> Any:
    """Attach the write's cascade report as the Store does (to the model, or to each model of a list)."""
    if cascade is None:
        return result
    report = CascadeReport.model_validate(cascade)

    def attach(item: Any) -> Any:
        fields = getattr(type(item), "model_fields", {})
        return item.model_copy(update={"cascade": report}) if "cascade" in fields else item

    return [attach(i) for i in result] if isinstance(result, list) else attach(result)


def _method(op: Operation) -> Any:
    store_method = getattr(Store, op.store_method)
    signature = inspect.signature(store_method)

    def method(self: Client, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind_partial(self, *args, **kwargs)
        fields: dict[str, Any] = {}
        for name, value in list(bound.arguments.items())[1:]:
            if signature.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
                fields.update(value)
            else:
                fields[name] = value
        return self._call(op, fields)

    method.__name__ = op.store_method
    method.__doc__ = store_method.__doc__
    method.__signature__ = signature  # type: ignore[attr-defined]
    return method


for _op in OPERATIONS:
    setattr(Client, _op.store_method, _method(_op))
