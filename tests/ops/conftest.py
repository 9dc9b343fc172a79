"""One private local Neo4j (instance `backup-test`) for the backup tests: a start and a full migration take one to two
minutes on a busy machine, so test_backup.py and test_backup_crypto.py share it, each in its own tenant; each
module's restore replaces the whole database, after the other module's tests are done with it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from credo.graph.core.db import Database
from credo.ops.migrate import migrate
from credo.ops.provision import LocalNeo4j
from credo.settings import Settings


class PrivateNeo4j:
    """The private server and a driver on it, reopened after each restart (`db()`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.local = LocalNeo4j(settings, progress=lambda _msg: None)
        self._db: Database | None = None

    def db(self) -> Database:
        """A fresh driver on the running server (a backup or a restore restarts it)."""
        self.close()
        info = self.local.running_info()
        assert info is not None, "the private Neo4j is not running"
        self._db = Database(info.uri, info.user, info.password, info.database, timeout_s=10)
        return self._db

    def close(self) -> None:
        """Close the current driver, if any."""
        if self._db is not None:
            self._db.close()
            self._db = None


@pytest.fixture(scope="package")
def private_neo4j(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateNeo4j]:
    """A started, migrated local instance of its own, stopped at the end."""
    settings = Settings(neo4j_uri=None, data_dir=tmp_path_factory.mktemp("backup-data"), instance="backup-test",
                        use_docker=False)
    server = PrivateNeo4j(settings)
    server.local.start()
    try:
        migrate(server.db())
        yield server
    finally:
        server.close()
        server.local.stop()
