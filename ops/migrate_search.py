"""Migration 0018's data step: what per-tenant search partitions left in a store goes (issue 25).

The migration's statements gave every fact version the filter keys of the one `fact_search` vector index and made
`fact_text` cover every version; here the partitions' own indexes are dropped, their labels (and `:FactText`) come
off the versions in batches, and the nodes that recorded partitions and slots are deleted. Every step is
idempotent: a store migrated halfway, or one that never had a partition, is left the same way.
"""

from __future__ import annotations

import re

from credo.cypher import load
from credo.graph.core.db import Database
from credo.graph.core.queries import READ_INDEXES

READ_SEARCH_LEFTOVERS = load("read_search_leftovers")
UNLABEL_FACT_VERSIONS = load("unlabel_fact_versions")
DELETE_SEARCH_PARTITIONS = load("delete_search_partitions")
# the only names partitions ever had (graph/search_partition.py of releases before issue 25): a name from the store
# is used in DDL only when it matches
_LABEL = re.compile(r"^(SearchS_[0-9]+|SearchT_[0-9a-f]{20}|FactText)$")
_INDEX = re.compile(r"^fact_(embedding|text)_(s_[0-9]+|t_[0-9a-f]{20})$")


def drop_partitions(db: Database) -> None:
    """Drop the partitions' indexes, take their labels off the versions, delete their nodes."""
    for name in (row["name"] for row in db.query(READ_INDEXES)):
        if _INDEX.match(name):
            db.run_schema(f"DROP INDEX {name} IF EXISTS")
    for label in db.query(READ_SEARCH_LEFTOVERS)[0]["labels"]:
        if _LABEL.match(label):
            db.run_schema_query(UNLABEL_FACT_VERSIONS, label=label)
    db.query(DELETE_SEARCH_PARTITIONS, write=True)
