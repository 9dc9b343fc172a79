"""Queries shared by the driver layer and migrations; each repository binds its own files too."""

from credo.cypher import load

READ_SERVER_INFO = load("read_server_info")
READ_MIGRATIONS = load("read_migrations")
RECORD_MIGRATION = load("record_migration")
READ_INDEXES = load("read_indexes")
READ_INDEX_PROPERTIES = load("read_index_properties")
