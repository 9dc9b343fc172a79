"""The one composition root: settings → database → store (embedder, key store, cipher), for every entry point.

The library (`credo.connect`), `credo serve` (REST, MCP over HTTP, the inspector), `credo mcp` (stdio), the CLI and
the demo all build their database and their store here, so a setting such as crypto-erasure applies on every
surface or on none. A surface then takes one handle per caller with `store.for_principal(principal)`: the tenant,
clearance, scopes and acting key come from the principal (`schema/api_keys.py`), never from the request.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from credo.schema.api_keys import Principal
from credo.settings import Settings

if TYPE_CHECKING:
    from credo.graph.core.db import Database
    from credo.store import Store

Say = Callable[[str], None]


def open_database(settings: Settings, *, start: bool = True, migrate: bool = True, progress: Say | None = None) -> "Database":
    """A driver on the configured Neo4j (NEO4J_URI, else the local one, started when `start`), migrated when
    `migrate`; closed again if anything fails."""
    from credo.graph.core.db import Database
    from credo.ops.migrate import migrate as run_migrations
    from credo.ops.provision import resolve_connection

    say = progress or (lambda _msg: None)
    info = resolve_connection(settings, start=start, progress=say)
    db = Database(info.uri, info.user, info.password, info.database, timeout_s=settings.connect_timeout_s,
                  pool_size=settings.pool_size)
    try:
        db.verify()
        if migrate:
            run_migrations(db, progress=say)
    except BaseException:
        db.close()
        raise
    return db


class _LazyDefaultEmbedder:
    """Loads the default model on first use, so handles that never embed never pay for it (`credo serve` prepares
    it at start instead)."""

    dimension = 384

    def embed(self, texts: list[str]) -> list[list[float]]:
        from credo.services.adapters.embeddings import default_embedder

        return default_embedder().embed(texts)


def embedder_for(choice: Any) -> Any:
    """"default" (all-MiniLM-L6-v2, loaded on first use), None (no embeddings), or an Embedder as given."""
    if choice == "default":
        return _LazyDefaultEmbedder()
    return choice


def open_store(
    settings: Settings, db: "Database", *, principal: Principal | None = None, embedder: Any = "default",
    owns_db: bool = True, clock: Callable[[], datetime] | None = None,
) -> "Store":
    """The store of `principal` (default: the local process in `settings.tenant`, every scope, clearance all) with
    the configured crypto-erasure mode and key store; `for_principal` on it gives every other caller's handle."""
    from credo.services.adapters.key_stores import FileKeyStore
    from credo.store import Store

    return Store(db, principal=principal or Principal.local(settings.tenant), embedder=embedder_for(embedder),
                 crypto=settings.crypto, keys=FileKeyStore(settings.keys_dir()), _owns_db=owns_db, _clock=clock,
                 verifier=verifier_for(settings))


def verifier_for(settings: Settings) -> Any:
    """The semantic verifier CREDO_VERIFIER names (DESIGN §11): none (None: every fact reads "not verified"), rules
    (the deterministic cue lists), llm (the OpenAI-compatible endpoint of CREDO_LLM_*), review (a person decides from
    the review queue). Composed here once, so every surface runs the same one."""
    choice = settings.verifier
    if choice == "none":
        return None
    if choice == "rules":
        from credo.services.verify.rules import RuleVerifier

        return RuleVerifier()
    if choice == "llm":
        from credo.services.verify.llm import LLMVerifier

        return LLMVerifier(settings)
    if choice == "review":
        from credo.services.verify.review import ReviewQueue

        return ReviewQueue()
    from credo.schema.errors import ConfigError

    raise ConfigError(f"CREDO_VERIFIER must be one of none, rules, llm, review (got {choice!r})")
