"""Crypto-erasure behind `credo serve`: the process's CREDO_CRYPTO applies to everything written over REST (the one
composition root builds its store), a forget destroys the key, and a crypto-off process refuses a sealed tenant."""

from __future__ import annotations

import httpx

from tests.api.conftest import new_tenant
from tests.api.rest.test_serve import serving


class _Q:  # raw Cypher for the tests only: what a backup or an attacker with database access would read
    def __init__(self, text: str) -> None:
        self.text = text


_EVERY_VALUE = _Q("MATCH (n {tenant: $tenant}) RETURN properties(n) AS props UNION ALL "
                  "MATCH (n {tenant: $tenant})-[r]-() RETURN properties(r) AS props")
WORDS = "Vimbrell drafted the Quennick ceasefire clause"  # the claim's words; entity names stay names (unsealed)


def stored_text(db, tenant: str) -> str:
    """Every property value of every node of the tenant and every relationship touching one, as one text."""
    def flat(value):
        return [str(v) for v in value] if isinstance(value, list) else [str(value)]

    return "\n".join(t for row in db.query(_EVERY_VALUE, tenant=tenant) for v in row["props"].values()
                     for t in flat(v))


def test_serve_with_crypto_on_seals_what_rest_writes_and_a_forget_destroys_the_key(neo4j_db, cli_env, tmp_path):
    keys = tmp_path / "keys"
    caller = new_tenant(neo4j_db)
    h = {"X-API-Key": caller.key}
    with serving(dict(cli_env, CREDO_CRYPTO="on", CREDO_KEY_DIR=str(keys))) as (url, _):
        httpx.post(f"{url}/v1/sessions/s1/messages", headers=h, json={"messages": [
            {"index": 0, "role": "user", "origin": "human_input", "author": "maria", "text": f"{WORDS} yesterday.",
             "at": "2024-01-05T09:00:00Z"}]}).raise_for_status()
        made = httpx.post(f"{url}/v1/sessions/s1/remember", headers=h, json={
            "quote": WORDS, "content": WORDS, "subject": "ceasefire clause", "predicate": "drafted"})
        assert made.status_code == 200, made.text
        fact_id = made.json()["result"]["fact_id"]
        # served in clear to the key that may read it ...
        why = httpx.get(f"{url}/v1/facts/{fact_id}/why", headers=h).json()
        assert why["sources"][0]["quote"] == WORDS
        # ... sealed on disk: no property of the tenant holds the words, the quote's fields are envelopes
        on_disk = stored_text(neo4j_db, caller.name)
        assert "Quennick" not in on_disk and "Vimbrell" not in on_disk and "enc1:" in on_disk
        assert any(keys.rglob("*")), "the process wrote its keys where CREDO_KEY_DIR says"
        forgot = httpx.post(f"{url}/v1/items/{fact_id}/forget", headers=h, json={"reason": "asked", "actor": "maria"})
        assert forgot.status_code == 200, forgot.text
        report = forgot.json()["result"]["report"]
        assert report["crypto_erased"] is True, report["crypto_reason"]


def test_a_crypto_off_server_refuses_a_tenant_sealed_elsewhere(neo4j_db, cli_env, tmp_path):
    caller = new_tenant(neo4j_db)
    h = {"X-API-Key": caller.key}
    with serving(dict(cli_env, CREDO_CRYPTO="on", CREDO_KEY_DIR=str(tmp_path / "sealing"))) as (url, _):
        assert httpx.post(f"{url}/v1/facts", headers=h, json={
            "subject": "Zorblax", "predicate": "signed", "object": "Quennick treaty"}).status_code == 201
    # another process, crypto off, with a key directory that never saw this tenant
    with serving(dict(cli_env, CREDO_CRYPTO="off", CREDO_KEY_DIR=str(tmp_path / "elsewhere"))) as (url, _):
        read = httpx.get(f"{url}/v1/facts", headers=h, params={"subject": "Zorblax"})
        write = httpx.post(f"{url}/v1/facts", headers=h, json={"subject": "Zorblax", "predicate": "met",
                                                                "object": "Bob"})
    for refused in (read, write):
        assert (refused.status_code, refused.json()["code"]) == (503, "not_configured"), refused.text
        assert "crypto-sealed" in refused.json()["detail"] and "enc1:" not in refused.text


def test_a_crypto_on_server_with_another_key_directory_refuses_the_sealed_tenant_instead_of_serving_it_destroyed(
        neo4j_db, cli_env, tmp_path):
    caller = new_tenant(neo4j_db)
    h = {"X-API-Key": caller.key}
    with serving(dict(cli_env, CREDO_CRYPTO="on", CREDO_KEY_DIR=str(tmp_path / "sealing"))) as (url, _):
        assert httpx.post(f"{url}/v1/facts", headers=h, json={
            "subject": "Zorblax", "predicate": "signed", "object": "Quennick treaty"}).status_code == 201
    # another process, crypto on, pointed at an empty key directory (a typo, a fresh volume)
    (tmp_path / "empty").mkdir()
    with serving(dict(cli_env, CREDO_CRYPTO="on", CREDO_KEY_DIR=str(tmp_path / "empty"))) as (url, _):
        read = httpx.get(f"{url}/v1/facts", headers=h, params={"subject": "Zorblax"})
    # then it refuses, in one line naming the key store, and never answers "[unreadable: ...]"
    assert (read.status_code, read.json()["code"]) == (503, "not_configured"), read.text
    assert "key store" in read.json()["detail"] and "CREDO_KEY_DIR" in read.json()["detail"]
    assert "unreadable" not in read.text and "enc1:" not in read.text and str(tmp_path) not in read.text
