"""Issue 12 acceptance: through REST and MCP, forget a fact and get a complete residue report; another tenant's key
gets 404 (not_found)."""

from __future__ import annotations

import anyio
from mcp.client import Client

from credo.api.mcp.server import build_server
from credo.cypher import Query
from tests.api.conftest import semantic_logged_for

SECRET = "The vault code 7431 is kept under Alice's desk"


def test_rest_forget_answers_a_complete_residue_report_and_another_tenants_key_gets_404(api, tenant_a, tenant_b):
    # given a fact of tenant A
    made = api.post("/v1/facts", json={"subject": "Vault", "predicate": "code_kept_by", "object": "Alice",
                                       "statement": SECRET}, headers=tenant_a.headers).json()["result"]
    fid = made["fact_id"]
    # when tenant B's key tries to forget or verify it, then 404 exactly like an unknown id
    for answer in (api.post(f"/v1/items/{fid}/forget", json={"reason": "x", "actor": "y"}, headers=tenant_b.headers),
                   api.get(f"/v1/items/{fid}/residue", headers=tenant_b.headers)):
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", answer.json()
    # when tenant A forgets it
    answer = api.post(f"/v1/items/{fid}/forget", json={"reason": "erasure request", "actor": "dpo"},
                      headers=tenant_a.headers)
    # then the residue report is complete and names what lies outside the store
    assert answer.status_code == 200, answer.json()
    report = answer.json()["result"]["report"]
    assert report["complete"] is True and report["residue"] == []
    assert {o["place"] for o in report["outside_store"]} == {"transaction logs", "backups"}
    assert report["crypto_erased"] is False
    again = api.get(f"/v1/items/{fid}/residue", headers=tenant_a.headers).json()
    assert again["complete"] is True and "7431" not in str(again)
    assert api.get("/v1/facts", params={"subject": "Vault"}, headers=tenant_a.headers).json()["items"] == []


def test_an_agent_forgets_a_fact_over_mcp_and_verifies_it_and_another_tenants_id_is_not_found(store):
    # given a fact of this tenant and one of another tenant
    mine = store.add_fact("Vault", "code_kept_by", "Alice", statement=SECRET)
    theirs = store.for_tenant(store.tenant + "_b").add_fact("Vault", "code_kept_by", "Bob")
    server = build_server(store.for_principal, principal=store.principal)

    async def scenario():
        async with Client(server) as client:
            forgot = await client.call_tool("forget", {"target_id": mine.fact_id, "reason": "the person asked",
                                                       "actor": "agent for Alice"})
            checked = await client.call_tool("verify_forgotten", {"target_id": mine.fact_id})
            other = await client.call_tool("forget", {"target_id": theirs.fact_id, "reason": "x", "actor": "y"})
            return forgot, checked, other

    forgot, checked, other = anyio.run(scenario)
    # then the agent gets a complete residue report, and another tenant's id answers not_found
    assert not forgot.is_error, forgot.content
    assert forgot.structured_content["report"]["complete"] is True
    assert checked.structured_content["complete"] is True
    assert other.is_error and other.structured_content["code"] == "not_found"
    assert store.for_tenant(store.tenant + "_b").facts("Vault")[0].fact_id == theirs.fact_id


def test_rest_residue_from_a_later_request_runs_the_text_probe_with_the_probe_stored_until_purge(api, tenant_a, neo4j_db):
    # given a fact forgotten over REST (one handle per request), then a copy of its text planted on another fact
    made = [api.post("/v1/facts", json={"subject": "Vault", "predicate": p, "object": o, "statement": s},
                     headers=tenant_a.headers).json()["result"]["fact_id"]
            for p, o, s in (("code_kept_by", "Alice", SECRET), ("located_in", "Basement", None))]
    assert api.post(f"/v1/items/{made[0]}/forget", json={"reason": "erasure", "actor": "dpo"},
                    headers=tenant_a.headers).json()["result"]["report"]["complete"] is True
    neo4j_db.query(Query("raw", "MATCH (f:Fact {fact_id: $id}) SET f.quote = $text", frozenset()), write=True,
                   id=made[1], text=SECRET)
    # when a later request asks for the residue
    report = api.get(f"/v1/items/{made[0]}/residue", headers=tenant_a.headers).json()
    # then the full-text probe ran from the stored probe and finds the copy
    assert "full-text" in report["probes"] and report["probe_from"] == "stored with the forget until purge"
    assert report["complete"] is False and "full-text" in {r["place"] for r in report["residue"]}


def test_over_rest_a_forgotten_and_purged_diagnosis_leaves_no_question_in_the_task_receipts_and_answers_its_tombstone(
        api, tenant_a):
    # given a message, a fact remembered from it and a search for a task, all over REST (the receipt keeps the question)
    h = tenant_a.headers
    said = "Maria Quokkaberry was diagnosed with Diabetesvex"
    [message] = api.post("/v1/sessions/s1/messages", headers=h, json={"messages": [
        {"index": 0, "role": "user", "origin": "human_input", "author": "nurse", "text": said + " last spring.",
         "at": "2024-01-05T09:00:00Z"}]}).json()["result"]
    fact = api.post("/v1/sessions/s1/remember", headers=h, json={
        "quote": said, "content": said, "subject": "Maria Quokkaberry", "predicate": "diagnosed_with",
        "object": "Diabetesvex"}).json()["result"]
    assert api.get("/v1/search", headers=h, params={"query": "Maria Quokkaberry", "task": "intake"}).is_success
    assert "Quokkaberry" in api.get("/v1/tasks/intake/receipts", headers=h).text
    # when the fact and its message are forgotten and purged, each in its own request
    ids = [fact["fact_id"], message["source_id"]]
    for ident in ids:
        assert api.post(f"/v1/items/{ident}/forget", json={"reason": "erasure", "actor": "dpo"}, headers=h).is_success
    for ident in ids:
        assert api.post(f"/v1/items/{ident}/purge", headers=h).is_success
    # then the task's receipts name neither the person nor the condition, and search finds neither
    receipts = api.get("/v1/tasks/intake/receipts", headers=h).text.lower()
    assert "quokkaberry" not in receipts and "diabetesvex" not in receipts
    found = api.get("/v1/search", headers=h, params={"query": "Diabetesvex"}).text.lower()
    assert "diabetesvex" not in found.replace('"query":"diabetesvex"', "")
    # and a later request's residue of each purged id answers its tombstone, complete, never 404
    for ident in ids:
        answer = api.get(f"/v1/items/{ident}/residue", headers=h)
        assert answer.status_code == 200, answer.json()
        report = answer.json()
        assert report["complete"] is True and report["purged_at"] and report["tombstone"]["reason"] == "erasure"


def test_a_tombstone_over_rest_names_the_acting_key_and_apart_the_actor_a_body_claims(api, tenant_a):
    # given a fact, forgotten over REST by a body claiming to act as "the CEO"
    made = api.post("/v1/facts", json={"subject": "Vault", "predicate": "code_kept_by", "object": "Alice",
                                       "statement": SECRET}, headers=tenant_a.headers).json()["result"]
    fid = made["fact_id"]
    answer = api.post(f"/v1/items/{fid}/forget", json={"reason": "cleanup", "actor": "the CEO"},
                      headers=tenant_a.headers)
    assert answer.status_code == 200, answer.json()
    # then the history reads "by key:<id> (on behalf of the CEO)", and the tombstone keeps both apart
    acting = f"key:{tenant_a.key_id}"
    [old] = api.get(f"/v1/facts/{fid}/history", headers=tenant_a.headers).json()["items"]
    assert f"by {acting} (on behalf of the CEO) for cleanup" in old["statement"], old["statement"]
    tombstone = answer.json()["result"]["report"]["tombstone"]
    assert (tombstone["by"], tombstone["on_behalf_of"]) == (acting, "the CEO")


def test_over_rest_a_forgotten_subject_leaves_no_summary_topic_or_retract_reason_and_the_ledger_verifies(
        api, tenant_a, neo4j_db):
    semantic_logged_for(neo4j_db, tenant_a.name)  # the gate and reads, not consent: remember serves at once
    # given (the review's scenario) a diagnosis remembered from a message, a summary of it whose topic is its text,
    # and a ward fact naming the patient retracted with a reason naming the patient
    h = tenant_a.headers
    said = "Kappa Forgetmenot was diagnosed with Zorbitisvex"
    msg = api.post("/v1/sessions/fs1/messages", headers=h, json={"messages": [{
        "index": 0, "role": "user", "origin": "human_input", "author": "Nurse Bravo", "text": said + ".",
        "at": "2024-01-05T09:00:00Z"}]}).json()["result"][0]["source_id"]
    fact = api.post("/v1/sessions/fs1/remember", headers=h, json={
        "quote": said, "content": said, "subject": "Kappa Forgetmenot", "predicate": "diagnosed_with",
        "object": "Zorbitisvex"}).json()["result"]["fact_id"]
    summary = api.post("/v1/summaries", headers=h, json={"text": "Kappa Forgetmenot has Zorbitisvex per clinic",
                                                         "derived_from": [fact]}).json()["result"]["summary_id"]
    ward = api.post("/v1/facts", headers=h, json={"subject": "Ward Nine", "predicate": "treats",
                                                  "object": "Kappa Forgetmenot"}).json()["result"]["fact_id"]
    assert api.post(f"/v1/facts/{ward}/retract", headers=h,
                    json={"reason": "Kappa Forgetmenot transferred"}).status_code == 200
    # when the fact, its message and the subject are forgotten, then purged
    for ident in (fact, msg):
        assert api.post(f"/v1/items/{ident}/forget", headers=h, json={"reason": "erasure", "actor": "dpo"}
                        ).status_code == 200
    job = api.post("/v1/entities/Kappa Forgetmenot/forget", headers=h, json={"reason": "erasure", "actor": "dpo"})
    assert job.status_code == 200, job.text
    for ident in (fact, msg):
        assert api.post(f"/v1/items/{ident}/purge", headers=h, json={}).status_code == 200
    # then neither the summary, the stale list nor the ledger shows the names, every report is complete, and the
    # ledger verifies
    shown = (api.get(f"/v1/summaries/{summary}", headers=h).text + api.get("/v1/stale", headers=h).text
             + api.get("/v1/audit", headers=h).text).lower()
    assert "forgetmenot" not in shown and "zorbitisvex" not in shown
    for ident in (fact, msg):
        assert api.get(f"/v1/items/{ident}/residue", headers=h).json()["complete"] is True
    assert api.get("/v1/audit/verify", headers=h).json()["ok"] is True
