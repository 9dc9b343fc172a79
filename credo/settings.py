"""One settings object for Credo: environment variables, then explicit arguments."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def _user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "credo"


def _user_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "credo"


class Settings(BaseSettings):
    """Connection, provisioning and model settings; every field has an environment variable."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    neo4j_uri: str | None = Field(default=None, validation_alias=AliasChoices("NEO4J_URI", "neo4j_uri"))
    neo4j_user: str = Field(default="neo4j", validation_alias=AliasChoices("NEO4J_USER", "NEO4J_USERNAME", "neo4j_user"))
    neo4j_password: str | None = Field(
        default=None, validation_alias=AliasChoices("NEO4J_PASSWORD", "neo4j_password")
    )
    neo4j_database: str = Field(default="neo4j", validation_alias=AliasChoices("NEO4J_DATABASE", "neo4j_database"))
    tenant: str = Field(default="default", validation_alias=AliasChoices("CREDO_TENANT", "tenant"))
    cache_dir: Path = Field(default_factory=_user_cache_dir, validation_alias=AliasChoices("CREDO_CACHE_DIR", "cache_dir"))
    data_dir: Path = Field(default_factory=_user_data_dir, validation_alias=AliasChoices("CREDO_DATA_DIR", "data_dir"))
    instance: str = Field(default="default", validation_alias=AliasChoices("CREDO_INSTANCE", "instance"))
    neo4j_version: str | None = Field(
        default=None, validation_alias=AliasChoices("CREDO_NEO4J_VERSION", "neo4j_version")
    )
    use_docker: bool = Field(default=True, validation_alias=AliasChoices("CREDO_USE_DOCKER", "use_docker"))
    connect_timeout_s: float = Field(
        default=5.0, validation_alias=AliasChoices("CREDO_CONNECT_TIMEOUT", "connect_timeout_s")
    )
    llm_base_url: str | None = Field(default=None, validation_alias=AliasChoices("CREDO_LLM_BASE_URL", "llm_base_url"))
    llm_model: str | None = Field(default=None, validation_alias=AliasChoices("CREDO_LLM_MODEL", "llm_model"))
    llm_api_key: str | None = Field(default=None, validation_alias=AliasChoices("CREDO_LLM_API_KEY", "llm_api_key"))

    verifier: str = Field(  # none | rules | llm | review (credo/bootstrap.py `verifier_for`)
        default="none", validation_alias=AliasChoices("CREDO_VERIFIER", "verifier"))
    verifier_per_minute: int = Field(  # LLM verifications a tenant may start in any minute (services/verify/limits.py)
        default=30, ge=1, validation_alias=AliasChoices("CREDO_VERIFIER_PER_MINUTE", "verifier_per_minute"))
    verifier_concurrency: int = Field(  # ... and run at once; past either, 429 rate_limited naming the limit
        default=2, ge=1, validation_alias=AliasChoices("CREDO_VERIFIER_CONCURRENCY", "verifier_concurrency"))
    crypto: str = Field(default="off", validation_alias=AliasChoices("CREDO_CRYPTO", "crypto"))  # off | on | read-only
    key_dir: Path | None = Field(default=None, validation_alias=AliasChoices("CREDO_KEY_DIR", "key_dir"))

    auth: bool = Field(default=True, validation_alias=AliasChoices("CREDO_AUTH", "auth"))
    host: str = Field(default="127.0.0.1", validation_alias=AliasChoices("CREDO_HOST", "host"))
    port: int = Field(default=8080, validation_alias=AliasChoices("CREDO_PORT", "port"))
    workers: int = Field(default=1, validation_alias=AliasChoices("CREDO_WORKERS", "workers"))
    pool_size: int = Field(default=100, validation_alias=AliasChoices("CREDO_POOL_SIZE", "pool_size"))
    ui_session_ttl_s: float = Field(  # an inspector login lasts at most this long, however busy
        default=8 * 3600, gt=0, validation_alias=AliasChoices("CREDO_UI_SESSION_TTL", "ui_session_ttl_s"))
    ui_session_idle_s: float = Field(  # ... and ends sooner when no page was opened for this long
        default=30 * 60, gt=0, validation_alias=AliasChoices("CREDO_UI_SESSION_IDLE", "ui_session_idle_s"))
    max_body_bytes: int = Field(  # a REST request's body; past it 413 (api/rest/limits.py)
        default=4 * 1024 * 1024, ge=1024, validation_alias=AliasChoices("CREDO_MAX_BODY_BYTES", "max_body_bytes"))
    max_bulk_body_bytes: int = Field(  # the body of POST /v1/facts/batch and /v1/facts/import
        default=64 * 1024 * 1024, ge=1024,
        validation_alias=AliasChoices("CREDO_MAX_BULK_BODY_BYTES", "max_bulk_body_bytes"))
    max_http_rows: int = Field(  # rows of one add_facts / import_facts request over HTTP (about 13 s of embedding)
        default=10_000, ge=1, validation_alias=AliasChoices("CREDO_MAX_HTTP_ROWS", "max_http_rows"))
    mcp_allowed_hosts: Annotated[list[str], NoDecode] = Field(  # comma-separated in the environment
        default_factory=lambda: ["127.0.0.1:*", "localhost:*", "[::1]:*"],
        validation_alias=AliasChoices("CREDO_MCP_ALLOWED_HOSTS", "mcp_allowed_hosts"),
    )

    @field_validator("mcp_allowed_hosts", mode="before")
    @classmethod
    def _host_list(cls, value: object) -> object:
        if isinstance(value, str):
            return [h.strip() for h in value.split(",") if h.strip()]
        return value

    def keys_dir(self) -> Path:
        """Where crypto-erasure keys live (never back it up with the graph): CREDO_KEY_DIR, else <instance>/keys."""
        return self.key_dir or self.instance_dir / "keys"

    @property
    def instance_dir(self) -> Path:
        """Directory of the local Neo4j instance named by `instance`."""
        return self.data_dir / "instances" / self.instance
