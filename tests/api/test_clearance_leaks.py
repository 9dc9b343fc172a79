"""The review's clearance findings over REST, each as the reviewer ran it: keys of one tenant, `OP` (operator, all),
`PUBR` (reader, public), `PUBC` (curator, public), `PUBA` (agent, public), `CONFA` (agent, confidential) and
`ADMPUB` (operator, public). Nothing a key may not see reaches it, and a refusal never tells a hidden thing from a
missing one."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from credo.services.access import api_keys

KEYS = {"OP": ("operator", "all"), "PUBR": ("reader", "public"), "PUBC": ("curator", "public"),
        "PUBA": ("agent", "public"), "CONFA": ("agent", "confidential"), "ADMPUB": ("operator", "public")}
MISSING_SOURCE = "s_00000000000000000000"


@dataclass
class Keys:
    """One tenant and its keys by name."""

    tenant: str
    secrets: dict[str, str]

    def h(self, name: str) -> dict[str, str]:
        return {"X-API-Key": self.secrets[name]}


@pytest.fixture
def keys(neo4j_db) -> Keys:
    tenant = f"t_{uuid.uuid4().hex[:12]}"
    return Keys(tenant, {name: api_keys.create_key(neo4j_db, tenant=tenant, clearance=clearance,
                                                   scopes=[preset]).secret
                         for name, (preset, clearance) in KEYS.items()})


def ok(response):
    assert response.status_code < 300, response.text
    return response.json()


def answer(response) -> tuple[int, dict]:
    """Status and body, the request id left out (it differs on every call)."""
    body = response.json()
    return response.status_code, {k: v for k, v in body.items() if k != "request_id"}


def said(api, k: Keys, session: str, texts: list[str], key: str = "OP") -> list[dict]:
    return ok(api.post(f"/v1/sessions/{session}/messages", headers=k.h(key), json={"messages": [
        {"index": i, "role": "user", "origin": "human_input", "author": "maria", "text": t,
         "at": f"2025-03-01T09:0{i}:00Z"} for i, t in enumerate(texts)]}))


# -- 1. the write gate is no oracle on a message above the caller's clearance -----------------------------------
@pytest.mark.parametrize("agent", ["PUBA", "CONFA"])
def test_probing_a_relabelled_message_over_rest_answers_like_a_missing_one(api, keys, agent):
    k = keys
    said(api, k, "s1", ["Quokka Hiddenperson has diabetesvex condition.", "The canteen opens at noon today."])
    fact = ok(api.post("/v1/sessions/s1/remember", headers=k.h("OP"), json={
        "quote": "Quokka Hiddenperson has diabetesvex condition", "content": "Quokka Hiddenperson has diabetesvex "
        "condition", "subject": "Quokka Hiddenperson", "predicate": "has_condition", "object": "diabetesvex"}))
    ok(api.post(f"/v1/facts/{fact['result']['fact_id']}/correct", headers=k.h("OP"), json={"sensitivity": "secret"}))
    probe = {"content": "unrelated words here", "subject": "Nobody", "predicate": "p", "object": "Nothing"}
    held = api.post("/v1/sessions/s1/remember", headers=k.h(agent), json={"quote": "Quokka Hiddenperson has d", **probe})
    absent = api.post("/v1/sessions/s1/remember", headers=k.h(agent), json={"quote": "Quokka Hiddenperson has c",
                                                                          **probe})
    assert held.status_code >= 400 and answer(held) == answer(absent)
    stolen = api.post("/v1/sessions/s1/remember", headers=k.h(agent), json={
        "quote": "Quokka Hiddenperson has diabetesvex", "content": "Quokka Hiddenperson has diabetesvex",
        "subject": "Quokka Hiddenperson", "predicate": "has", "object": "diabetesvex"})
    assert stolen.status_code in (404, 422)
    assert "diabetesvex" not in api.get("/v1/facts", headers=k.h("PUBR")).text.lower()


# -- 4. cite, quarantine and release by a hidden source answer like a missing source ----------------------------
def test_a_source_backing_a_secret_fact_is_missing_to_a_public_curator_and_reader(api, keys):
    k = keys
    public = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Door", "predicate": "opens",
                                                               "object": "Friday", "valid_from": "2024-01-01",
                                                               "sensitivity": "public"}))
    secret = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Vault", "predicate": "holds",
                                                               "object": "Gold", "valid_from": "2024-01-01",
                                                               "sensitivity": "secret"}))
    doc = ok(api.post("/v1/sources", headers=k.h("OP"), json={"kind": "document", "text": "The vault holds gold.",
                                                                "title": "Vault ledger Q3",
                                                                "uri": "https://example.org/vault-ledger"}))
    pid, sid, src = public["result"]["fact_id"], secret["result"]["fact_id"], doc["result"]["source_id"]
    ok(api.post(f"/v1/facts/{sid}/cite", headers=k.h("OP"), json={"source_id": src}))
    acts = [("POST", f"/v1/facts/{pid}/cite", {"source_id": "{s}"}),
            ("POST", "/v1/quarantine", {"source_id": "{s}", "reason": "r", "actor": "a"}),
            ("POST", "/v1/release", {"source_id": "{s}", "reason": "r", "actor": "a"})]
    for method, path, body in acts:
        hidden = api.request(method, path, headers=k.h("PUBC"), json={key: v.format(s=src) for key, v in body.items()})
        missing = api.request(method, path, headers=k.h("PUBC"),
                              json={key: v.format(s=MISSING_SOURCE) for key, v in body.items()})
        assert hidden.status_code == 404, (path, hidden.text)
        status, problem = answer(hidden)
        assert (status, {key: str(v).replace(src, MISSING_SOURCE) for key, v in problem.items()}) == (
            missing.status_code, {key: str(v) for key, v in answer(missing)[1].items()})
    # a cleared key cites the hidden source for the public fact: the public reader's views still never name it
    ok(api.post(f"/v1/facts/{pid}/cite", headers=k.h("OP"), json={"source_id": src}))
    for path in (f"/v1/facts/{pid}/why", f"/v1/facts/{pid}/prov"):
        shown = api.get(path, headers=k.h("PUBR"))
        assert shown.status_code == 200, shown.text
        for word in (src, "Vault ledger Q3", "vault-ledger"):
            assert word not in shown.text, (path, word)
    assert ok(api.get(f"/v1/facts/{pid}/why", headers=k.h("PUBR")))["sources_withheld"] == 1



# -- 2. a range write never splits a version above the caller's clearance ---------------------------------------
def test_a_public_curators_range_write_over_a_secret_value_is_forbidden_and_writes_nothing(api, keys, neo4j_db):
    from tests.api.test_scopes import footprint

    k = keys
    secret = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Vault", "predicate": "holds",
                                                               "object": "Gold", "valid_from": "2024-01-01",
                                                               "sensitivity": "secret"}))["result"]
    before = footprint(neo4j_db, k.tenant)
    refused = api.post("/v1/facts/range", headers=k.h("PUBC"), json={
        "subject": "Vault", "predicate": "holds", "object": "Silver", "valid_from": "2024-03-01",
        "valid_to": "2024-04-01"})
    assert (refused.status_code, refused.json()["code"], refused.json()["field"]) == (403, "forbidden", "valid_from")
    assert "Gold" not in refused.text
    assert footprint(neo4j_db, k.tenant) == before
    history = ok(api.get(f"/v1/facts/{secret['fact_id']}/history", headers=k.h("OP")))
    assert [v["version_id"] for v in (history.get("items") or history)] == [secret["version_id"]]


# -- 3. the conflict rule names nothing above the reader's clearance -------------------------------------------
def test_the_conflict_rule_tells_public_keys_no_hidden_version(api, keys):
    k = keys

    def write(key, obj, start, label):
        return ok(api.post("/v1/facts", headers=k.h(key), json={"subject": "Acme", "predicate": "ceo", "object": obj,
                                                                "valid_from": start, "sensitivity": label}))["result"]

    hidden = write("OP", "Bob", "2024-06-01", "secret")
    bounded = write("PUBC", "Alice", "2024-01-01", "public")
    assert bounded["bounded_by"] is None and bounded["valid_to"].startswith("2024-06-01")
    conflicted = write("PUBC", "Carol", "2024-07-01", "public")
    assert conflicted["state"] == "conflicted"
    reads = [api.get(p, headers=k.h("PUBR"), params=q) for p, q in [
        ("/v1/facts", {"subject": "Acme", "states": ["active", "conflicted"]}),
        (f"/v1/facts/{bounded['fact_id']}/history", {}), (f"/v1/facts/{bounded['fact_id']}/why", {}),
        ("/v1/context", {"query": "Acme", "valid_at": "2024-08-01"})]]
    for r in reads:
        assert r.status_code == 200 and hidden["version_id"] not in r.text and "Bob" not in r.text, r.text
    package = reads[-1].json()
    [item] = [i for i in package["open"] if i["fact"]["fact_id"] == conflicted["fact_id"]]
    assert item["cause"] == "conflicted (awaiting a decision by a key cleared for it)"
    assert "contradicts" not in reads[-1].text
    # a public fact relabelled secret by a restatement: its public reader is told only that it was superseded
    first = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Door", "predicate": "opens",
                                                              "object": "Friday", "valid_from": "2024-01-01",
                                                              "sensitivity": "public"}))["result"]
    ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Door", "predicate": "opens", "object": "Friday",
                                                      "valid_from": "2024-01-01", "sensitivity": "secret"}))
    history = api.get(f"/v1/facts/{first['fact_id']}/history", headers=k.h("PUBR"))
    assert "relabelled" not in history.text and "superseded by a restatement" in history.text


# -- 5. the audit ledger needs clearance all, on every surface ---------------------------------------------------
def test_an_operator_key_cleared_for_public_reads_no_ledger(api, keys):
    from tests.api.inspector.test_inspector_pages import login

    k = keys
    secret = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Vault Guard", "predicate": "guards",
                                                               "object": "Vault", "valid_from": "2024-01-01",
                                                               "sensitivity": "secret"}))["result"]
    ok(api.post(f"/v1/facts/{secret['fact_id']}/retract", headers=k.h("OP"),
                json={"reason": "SECRETREASON Vault Guard embezzled"}))
    for params in ({}, {"id": secret["fact_id"]}):
        refused = api.get("/v1/audit", headers=k.h("ADMPUB"), params=params)
        assert (refused.status_code, refused.json()["code"], refused.json()["field"]) == (403, "forbidden",
                                                                                          "clearance")
        assert "SECRETREASON" not in refused.text and secret["fact_id"] not in refused.text
    assert ok(api.get("/v1/audit/verify", headers=k.h("ADMPUB")))["ok"] is True
    assert "SECRETREASON" in api.get("/v1/audit", headers=k.h("OP"), params={"id": secret["fact_id"]}).text
    # the inspector's why-view of a public fact says the ledger needs clearance all, and shows none of it
    public = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Door", "predicate": "opens",
                                                               "object": "Friday", "valid_from": "2024-01-01",
                                                               "sensitivity": "public"}))["result"]
    login(api, type("T", (), {"key": k.secrets["ADMPUB"]})())
    page = api.get(f"/ui/facts/{public['fact_id']}.json")
    assert page.status_code == 200 and page.json()["ledger"] == []
    assert any("clearance 'all'" in m for m in page.json()["missing"])


# -- 6. a purged tombstone answers only a key that could have seen it ---------------------------------------------
def test_a_purged_secret_facts_tombstone_is_missing_to_a_public_reader(api, keys):
    k = keys
    secret = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Vault Guard", "predicate": "guards",
                                                               "object": "Vault", "valid_from": "2024-01-01",
                                                               "sensitivity": "secret"}))["result"]
    fid, missing = secret["fact_id"], "f_00000000000000000000"
    ok(api.post(f"/v1/items/{fid}/forget", headers=k.h("OP"), json={"reason": "SECRETFORGETREASON",
                                                                     "actor": "dpo"}))
    absent = answer(api.get(f"/v1/items/{missing}/residue", headers=k.h("PUBR")))
    assert api.get(f"/v1/items/{fid}/residue", headers=k.h("PUBR")).status_code == 404
    ok(api.post(f"/v1/items/{fid}/purge", headers=k.h("OP"), json={}))
    after = api.get(f"/v1/items/{fid}/residue", headers=k.h("PUBR"))
    status, body = answer(after)
    assert status == 404 and "SECRETFORGETREASON" not in after.text and "dpo" not in after.text
    assert (status, {key: str(v).replace(fid, missing) for key, v in body.items()}) == (
        absent[0], {key: str(v) for key, v in absent[1].items()})
    assert "SECRETFORGETREASON" in api.get(f"/v1/items/{fid}/residue", headers=k.h("OP")).text


# -- 7. a receipt's question is withheld from a key below its asker's clearance ---------------------------------
def test_an_operators_question_is_withheld_from_a_public_readers_receipts(api, keys):
    k = keys
    globex = ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Globex", "predicate": "hq_in",
                                                               "object": "Springfield", "valid_from": "2024-01-01",
                                                               "sensitivity": "public"}))["result"]
    ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Quentin Secretman", "predicate": "works_at",
                                                      "object": "Globex", "valid_from": "2024-01-01",
                                                      "sensitivity": "secret"}))
    ok(api.get("/v1/context", headers=k.h("OP"), params={"query": "Globex and Quentin Secretman",
                                                         "task": "leaktask"}))
    for path in ("/v1/tasks/leaktask/receipts", f"/v1/facts/{globex['fact_id']}/tasks"):
        shown = api.get(path, headers=k.h("PUBR"))
        assert shown.status_code == 200 and "Secretman" not in shown.text, shown.text
        [receipt] = shown.json()["items"]
        assert (receipt["query"], receipt["query_withheld"]) == (None, True)
        assert "Quentin Secretman" in api.get(path, headers=k.h("OP")).text


# -- 8. forgetting by name answers a hidden entity as a missing name ------------------------------------------
def test_a_public_curators_forget_by_name_never_names_a_hidden_entitys_id(api, keys, neo4j_db):
    from tests.api.test_scopes import footprint

    k = keys
    ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Acme account", "predicate": "owned_by",
                                                      "object": "Alice", "valid_from": "2024-01-01",
                                                      "sensitivity": "public"}))
    ok(api.post("/v1/facts", headers=k.h("OP"), json={"subject": "Acme account", "predicate": "discount",
                                                      "object": {"type": "string", "value": "40 %"},
                                                      "valid_from": "2024-01-01", "sensitivity": "secret"}))
    before = footprint(neo4j_db, k.tenant)
    body = {"reason": "r", "actor": "a"}
    hidden = api.post("/v1/entities/Acme account/forget", headers=k.h("PUBC"), json=body)
    missing = api.post("/v1/entities/No Such Thing/forget", headers=k.h("PUBC"), json=body)
    assert hidden.status_code == missing.status_code == 404 and "e_" not in hidden.text
    status, problem = answer(hidden)
    assert (status, {key: str(v).replace("Acme account", "No Such Thing") for key, v in problem.items()}) == (
        missing.status_code, {key: str(v) for key, v in answer(missing)[1].items()})
    assert footprint(neo4j_db, k.tenant) == before
