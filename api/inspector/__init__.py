"""The memory inspector: server-rendered pages over the same operations and keys as REST and MCP (issue 13).

Each page `/ui/<page>` has a JSON twin `/ui/<page>.json` answering the page's view model; forms that write post
to `/ui/...` with a CSRF token and call the registry's operations through the REST layer's `run`, as the one principal
a server-side session resolves to (api/inspector/session.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles

STATIC = "/ui/static"


def install(app: FastAPI) -> None:
    """Add the inspector's routes and its static files (stylesheet, search-as-you-type script) to the app; they are
    not part of the OpenAPI document."""
    from credo.api.inspector import diff_pages
    from credo.api.inspector import episode_pages
    from credo.api.inspector import forget_pages
    from credo.api.inspector import policy_pages
    from credo.api.inspector import read_pages
    from credo.api.inspector import review_pages
    from credo.api.inspector import write_pages

    app.include_router(read_pages.router)
    app.include_router(write_pages.router)
    app.include_router(forget_pages.router)
    app.include_router(diff_pages.router)
    app.include_router(review_pages.router)
    app.include_router(policy_pages.router)
    app.include_router(episode_pages.router)
    app.mount(STATIC, StaticFiles(directory=Path(__file__).with_name("static")), name="ui-static")


def answers_html(path: str) -> bool:
    """Whether a refusal at `path` is a page (the inspector's pages) rather than a problem document (its JSON twins,
    its static files, and everything outside /ui)."""
    return (path == "/ui" or path.startswith("/ui/")) and not path.endswith(".json") and not path.startswith(STATIC)


def problem_page(request: Request, problem: Any) -> Any:
    """A problem document drawn as an inspector page."""
    from credo.api.inspector.render import problem_page as draw

    return draw(request, problem)
