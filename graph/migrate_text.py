"""Migration 0011's data step: the versions of tenants without a full-text index of their own join the global one."""

from __future__ import annotations

from credo.cypher import load
from credo.graph.db import Database

LABEL_GLOBAL_TEXT = load("label_global_text")


def label_small_tenants(db: Database) -> None:
    """Label `:FactText` every version of a tenant without a ready partition full-text index (idempotent)."""
    db.run_schema_query(LABEL_GLOBAL_TEXT)
    db.run_schema("CALL db.awaitIndex('fact_text', 600)")
