"""The memory inspector: server-rendered pages over the same operations and keys as REST and MCP (issue 13).

Each page `/ui/<page>` has a JSON twin `/ui/<page>.json` answering the page's view model; forms that write post
to `/ui/...` with a CSRF token and call the registry's operations through the REST layer's `run`.
"""

from __future__ import annotations

from fastapi import FastAPI


def install(app: FastAPI) -> None:
    """Add the inspector's routes to the app (they are not part of the OpenAPI document)."""
    from credo.api.pages import forget_pages, read_pages, write_pages

    app.include_router(read_pages.router)
    app.include_router(write_pages.router)
    app.include_router(forget_pages.router)
