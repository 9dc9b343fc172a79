"""Credo's REST API (FastAPI) under /v1: routes built from the operation registry; `create_app` is the root."""

from credo.api.rest.app import create_app

__all__ = ["create_app"]
