"""Routes generated from the operation registry: one per Operation, none retyping a field list.

GET operations take their command's fields as query parameters (`scope` as JSON text, `states` repeated);
POST operations take a JSON body generated from the command model minus the path parameters. Writes answer
`{result, cascade}` (2xx = committed); lists answer a `Page`; as-of reads a page of their `AsOfAnswer`
(`{items, undated, unreadable, next_cursor}`), the model MCP and the Client share.
"""

from __future__ import annotations

import inspect
import json
from typing import Annotated, Any, Generic, TypeVar, get_args

from fastapi import APIRouter, Body, Depends, Path, Query, Request
from pydantic import BaseModel, create_model
from pydantic.json_schema import models_json_schema

from credo.api.problems import PROBLEM_MEDIA_TYPE, Problem
from credo.api import pages
from credo.api.rest.auth import principal
from credo.schema.api_keys import Principal
from credo.api.rest.limits import MAX_JSON_DEPTH, too_deep
from credo.schema.cascade import CascadeReport
from credo.schema.commands import Command, build
from credo.schema.errors import InvalidInput, TooLarge
from credo.schema.facts import AsOf
from credo.schema.operations import OPERATIONS, Operation

T = TypeVar("T")


class Written(BaseModel, Generic[T]):
    """What a committed write answers: its result (with new ids) and the cascade report (what went stale, why)."""

    result: T
    cascade: CascadeReport | None = None


def _cascade_of(result: Any) -> CascadeReport | None:
    items = result if isinstance(result, list) else [result]
    return next((i.cascade for i in items if getattr(i, "cascade", None) is not None), None)


def _body_model(op: Operation) -> type[BaseModel] | None:
    """The schema of a POST route's body (the command's fields but those in the path), for the OpenAPI document
    only: the body is validated once, by the command itself (`run`)."""
    fields = {name: (info.annotation, info) for name, info in op.command.model_fields.items()
              if name not in op.path_params}
    if not fields:
        return None
    model = create_model(f"{op.command.__name__}Body", __base__=Command, __doc__=op.command.__doc__, **fields)
    BODY_MODELS[model.__name__] = model
    return model


BODY_MODELS: dict[str, type[BaseModel]] = {}
"""The body schemas of the POST routes by name, added to the OpenAPI document's components (`add_body_schemas`)."""


def add_body_schemas(app: Any) -> None:
    """Put the POST routes' body schemas in the app's OpenAPI document (each route's body refers to its own): the
    route reads its body as a JSON object that its command validates, so FastAPI draws no schema for it."""
    drawn = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = drawn()
            _, defs = models_json_schema([(m, "validation") for m in BODY_MODELS.values()],
                                         ref_template="#/components/schemas/{model}")
            document.setdefault("components", {}).setdefault("schemas", {}).update(defs.get("$defs", {}))
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi


def _body_fields(op: Operation, body: dict[str, Any]) -> dict[str, Any]:
    """A body's fields as sent (validated by the command); a path parameter is not a body field."""
    for name in op.path_params:
        if name in body:
            raise InvalidInput(name, f"is given in the path, not in the body (the route is {op.path})")
    return body


def _optional_int(annotation: Any) -> bool:
    """Whether a field takes an integer or nothing (`Int | None`: the Annotated integer inside an Optional)."""
    members = [m for m in get_args(annotation) if m is not type(None)]
    return len(members) == 1 and (get_args(members[0])[:1] or (members[0],))[0] is int


def _query_param(name: str, info: Any) -> inspect.Parameter:
    if name in ("states", "kinds"):
        kind: Any = list[str] | None
    elif info.annotation in (bool, int):
        kind = info.annotation
    elif _optional_int(info.annotation):  # parsed as an integer here, from the query's text; the command bounds it
        kind = int | None
    else:
        kind = str | None
    default = info.default if info.annotation in (bool, int) else None
    description = {"scope": "JSON object, e.g. {\"env\": \"production\"}",
                   "object": "an entity name, or a typed literal as JSON, e.g. {\"type\": \"date\", \"value\": "
                             "\"2019-04-01\"} (string, number or date)"}.get(name, info.description or None)
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=Annotated[kind, Query(description=description)])


def _from_query(op: Operation, given: dict[str, Any]) -> dict[str, Any]:
    fields = {k: v for k, v in given.items() if v is not None}
    if isinstance(fields.get("scope"), str):
        if too_deep(fields["scope"]):
            raise InvalidInput("scope", f"must be a JSON object of text values (it nests deeper than "
                                        f"{MAX_JSON_DEPTH} levels)")
        try:
            fields["scope"] = json.loads(fields["scope"])
        except (ValueError, RecursionError):
            raise InvalidInput("scope", "must be a JSON object of text values") from None
    if isinstance(fields.get("object"), str) and fields["object"].lstrip().startswith("{"):
        try:  # a typed literal, e.g. {"type": "date", "value": "2019-04-01"}; other text names an entity
            fields["object"] = json.loads(fields["object"])
        except ValueError:
            raise InvalidInput("object", "a typed literal is JSON text {\"type\": ..., \"value\": ...}") from None
    return fields


def _refuse_unknown_query(request: Request, known: frozenset[str]) -> None:
    """A query parameter the route does not take is refused by its name, like an unknown body field."""
    for name in request.query_params:
        if name not in known:
            takes = ", ".join(sorted(known)) or "none"
            raise InvalidInput(name, f"is not a parameter of this route (it takes: {takes})")


def _response_model(op: Operation) -> Any:
    if op.write:
        return Written[op.returns]  # type: ignore[name-defined]
    if op.as_of:  # a page of the as-of answer: its dated items, and its undated ones apart
        return op.as_of
    if op.paged:
        return pages.Page[op.returns.__args__[0]]  # type: ignore[name-defined]
    return op.returns


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the problem documents a route may answer (RFC 9457, from api/problems.py)."""
    return {status: {"model": Problem, "description": PROBLEM_TEXT.get(status, "a problem document"),
                     "content": {PROBLEM_MEDIA_TYPE: {}}} for status in statuses}


PROBLEM_TEXT = {400: "the body is not JSON", 401: "missing, unknown or revoked API key",
                403: "the API key lacks the operation's scope", 404: "no such object in this tenant",
                409: "refused by a rule, not current any more, or a lost race (retryable)",
                413: "the body is larger than the route's limit (CREDO_MAX_BODY_BYTES, CREDO_MAX_BULK_BODY_BYTES)",
                422: "a value broke a rule (names the field and the rule)", 502: "the LLM endpoint failed",
                429: "a per-tenant limit of the LLM verifier is reached (names it; Retry-After says when)",
                503: "the database does not answer, or the server is not configured for this"}


def _caller_store(op: Operation) -> Any:
    """The dependency giving a route its caller's Store, refusing (403) a key without the operation's scope before
    the body is read (the Store method checks it again: the guarantee lives there)."""
    def caller_store(request: Request, who: Annotated[Principal, Depends(principal)]) -> Any:
        store = request.app.state.runtime.store_for(who)
        store.authorize(op.name, dict(request.query_params))  # `task` in the query: search / context record receipts
        return store

    return caller_store


PROBLEM_STATUSES = {"GET": (400, 401, 403, 404, 409, 422, 502, 503),
                    "POST": (400, 401, 403, 404, 409, 413, 422, 502, 503)}
RATE_LIMITED = frozenset({"verify"})  # operations that call the LLM verifier in the request (services/verify/limits.py)


def add_route(router: APIRouter, op: Operation) -> None:
    """Register the route of one operation."""
    body_model = _body_model(op) if op.http_method == "POST" else None
    params = [inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request),
              inspect.Parameter("store", inspect.Parameter.KEYWORD_ONLY,
                                annotation=Annotated[Any, Depends(_caller_store(op))])]
    params += [inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[str, Path()])
               for p in op.path_params]
    extra: dict[str, Any] | None = None
    if body_model is not None:  # a JSON object the command validates (once, in `run`); its schema is the body model's
        params.append(inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY,
                                        annotation=Annotated[dict[str, Any], Body()]))
        extra = {"requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{body_model.__name__}"}}}}}
    elif op.http_method == "GET":
        params += [_query_param(n, i) for n, i in op.command.model_fields.items() if n not in op.path_params]
        # an old name is read only to be refused with a hint naming the new one (by the command model)
        params += [inspect.Parameter(old, inspect.Parameter.KEYWORD_ONLY, default=None,
                                     annotation=Annotated[str | None, Query(include_in_schema=False)])
                   for old in op.command.renamed]
    if op.paged and not op.write:
        params += [
            inspect.Parameter("limit", inspect.Parameter.KEYWORD_ONLY, default=pages.DEFAULT_LIMIT,
                              annotation=Annotated[int, Query(ge=1, le=pages.MAX_LIMIT)]),
            inspect.Parameter("cursor", inspect.Parameter.KEYWORD_ONLY, default=None,
                              annotation=Annotated[str | None, Query(max_length=pages.CURSOR_MAX)]),
        ]
    known = frozenset(p.name for p in params if p.name not in ("request", "store", "body") + tuple(op.path_params))

    def endpoint(request: Request, store: Any, **given: Any) -> Any:
        _refuse_unknown_query(request, known)
        # a paged listing's limit and cursor are the page's; a non-paged read's own `limit` field is the command's
        paged = op.paged and not op.write
        limit, cursor = (given.pop("limit", None), given.pop("cursor", None)) if paged else (None, None)
        body = given.pop("body", None)
        fields = {p: given.pop(p) for p in op.path_params}
        fields |= _body_fields(op, body) if body is not None else _from_query(op, given)
        return run(request, store, op, fields, limit=limit, cursor=cursor)

    endpoint.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    endpoint.__name__ = op.name
    status = 201 if op.write and op.http_method == "POST" and op.name.startswith("add") else 200
    router.add_api_route(op.path, endpoint, methods=[op.http_method], name=op.name, status_code=status,
                         response_model=_response_model(op), summary=(op.command.__doc__ or op.name).split("\n")[0],
                         operation_id=op.name, tags=[op.path.split("/")[2]],
                         responses=problem_responses(*PROBLEM_STATUSES[op.http_method],
                                                     *((429,) if op.name in RATE_LIMITED else ())),
                         openapi_extra=extra)


def run(request: Request, store: Any, op: Operation, fields: dict[str, Any], *, limit: int | None,
        cursor: str | None) -> Any:
    """Validate with the command model (once), hand the command to its handler, shape the answer (page, write
    report)."""
    _bounded_rows(op, fields, request.app.state.runtime.settings.max_http_rows)
    cmd = build(op.command, **fields)  # bad input answers 422 before anything runs
    extras = request.app.state.runtime.extras_for(op.name)
    if op.write or not op.paged:
        result = store.handle(op.name, cmd, **extras)
        return Written(result=result, cascade=_cascade_of(result)) if op.write else result
    # the page is cut in the read's query, not from the whole list (by key, or by position): one path, the MCP tools'
    page = pages.keyset_read(lambda command, **paging: store.handle(op.name, command, **extras, **paging), cmd,
                             fields, operation=op.name, limit=limit, cursor=cursor,
                             by=pages.cut_by(type(store), op.store_method))
    if op.as_of:  # the page's items split into the dated answer and the undated ones apart (the AsOfAnswer)
        return AsOf(page.items, page.unreadable).answer(page.next_cursor)
    return page


BULK = frozenset({"add_facts", "import_facts"})  # operations whose rows a request may carry by the thousand


def _bounded_rows(op: Operation, fields: dict[str, Any], most: int) -> None:
    """A bulk request over HTTP holds at most `most` rows (CREDO_MAX_HTTP_ROWS), so no request keeps a worker
    embedding and writing for minutes; a larger import is sent in several requests or run by `credo import`."""
    rows = fields.get("rows") if op.name in BULK else None
    if isinstance(rows, list) and len(rows) > most:
        raise TooLarge("rows", f"at most {most} rows per request over HTTP (got {len(rows)}): send them in several "
                               "requests, or run `credo import FILE.jsonl` beside the server (batches with progress)")


def add_routes(router: APIRouter) -> None:
    """Every operation of the registry as a route of `router` (the app's own, so each route is listed there)."""
    for op in OPERATIONS:
        add_route(router, op)
