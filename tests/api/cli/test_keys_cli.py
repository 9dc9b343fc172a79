"""`credo keys create | list | revoke`: the secret is printed once, stored only as a hash, and revocation bites."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from credo.api.rest import create_app
from credo.graph.access import api_keys as key_repo
from credo.settings import Settings

CREDO = str(Path(sys.executable).with_name("credo"))


def credo(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([CREDO, *args], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_created_key_authenticates_lists_without_its_secret_and_stops_working_when_revoked(cli_env, neo4j_db, tenant):
    made = json.loads(credo(cli_env, "keys", "create", "--name", "ci", "--json"))
    assert made["tenant"] == tenant and made["secret"].startswith("credo_")
    listed = credo(cli_env, "keys", "list", "--json")
    assert made["key_id"] in listed and made["secret"] not in listed
    _, stored_hash = key_repo.find(neo4j_db, made["key_id"])
    secret_part = made["secret"].split("_", 2)[2]
    assert stored_hash == hashlib.sha256(secret_part.encode()).hexdigest() and secret_part not in stored_hash
    with TestClient(create_app(Settings(), db=neo4j_db, embedder=None)) as api:
        assert api.get("/v1/stale", headers={"X-API-Key": made["secret"]}).status_code == 200
        credo(cli_env, "keys", "revoke", made["key_id"])
        assert api.get("/v1/stale", headers={"X-API-Key": made["secret"]}).status_code == 401
    assert "revoked" in credo(cli_env, "keys", "list")


def test_a_key_with_an_unknown_clearance_is_refused_in_one_line(cli_env, neo4j_db, tenant):
    # when a key is asked for with a clearance that does not exist
    done = subprocess.run([CREDO, "keys", "create", "--clearance", "topsecret"], env=cli_env, capture_output=True,
                          text=True, timeout=120)
    # then one line names the field and the valid clearances, the command fails, and no key was made
    assert done.returncode == 1 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "clearance" in done.stderr and "confidential" in done.stderr
    assert "topsecret" not in credo(cli_env, "keys", "list", "--json")
