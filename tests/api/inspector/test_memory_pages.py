"""The inspector shows issue 27's capabilities where a person would look for them: the write policy page, the
episodes page with its reflect form, the marks of a fact on its why page (write plan, verification, operational
evidence, weak), a preference's drift item in the queues, and the transition check page. Each page is server-rendered
without script, escapes stored text, and reads with the logged-in key's clearance."""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta, timezone

from credo.api.inspector import episode_pages
from credo.api.inspector.session import COOKIE
from credo.schema.api_keys import SCOPES
from credo.services.verify.review import ReviewQueue
from credo.store import Store
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_forms import token_of
from tests.api.inspector.test_inspector_pages import login

HOSTILE = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def store_of(db, tenant, **extra) -> Store:
    return Store(db, tenant=tenant.name, embedder=None, _owns_db=False, **extra)


def clean(page) -> str:
    """The page's text after checking it answered and carries no stored markup unescaped."""
    assert page.status_code == 200, page.text[-600:]
    assert HOSTILE not in page.text
    return page.text


# -- the write policy ------------------------------------------------------------------------------------------------
def test_the_policy_page_shows_the_policy_in_force_per_kind_and_reads_an_earlier_one(api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    login(api, tenant_a)
    # given a tenant that never set a policy: the defaults, with the default TTLs
    before = clean(api.get("/ui/policy"))
    assert "<code>default</code>" in before and 'href="/ui/policy"' in before
    assert "chat: PT24H" in before and "credo policy set" in before
    assert '<form method="post"' not in before.split('<main id="main">')[1]  # read-only: no form writes
    earlier = datetime.now(timezone.utc).isoformat()
    # when an admin sets one (a workflow named with markup, a kind that earns no slot, a visibility)
    version = store.set_write_policy({"episodic": {"ttl": {"default": "P7D", HOSTILE: "PT1H"}},
                                      "procedural": {"earns": "never"}, "semantic": {"visible": "logged"}})
    page = clean(api.get("/ui/policy"))
    # then the page names its id and known_from, and per kind what the tenant set
    assert f"<code>{version.policy_id}</code>" in page and version.known_from.isoformat() in page
    assert f"{ESCAPED}: PT1H" in page and "default: P7D" in page and "chat: PT24H" not in page
    assert "never (no slot)" in page and "set by this tenant: earns" in page
    twin = api.get("/ui/policy.json").json()
    kinds = {k["kind"]: k for k in twin["kinds"]}
    assert twin["version"]["policy_id"] == version.policy_id
    assert kinds["semantic"]["visible"] == "logged" and kinds["semantic"]["when"] == "reflection"
    assert kinds["episodic"]["ttls"] == {"default": "P7D", HOSTILE: "PT1H"}
    # and as known before it was set, the defaults again
    then = api.get("/ui/policy.json", params={"known_at": earlier}).json()
    assert then["version"]["policy_id"] == "default" and then["known_at"] == earlier
    assert f'value="{earlier}"' in clean(api.get("/ui/policy", params={"known_at": earlier}))


def test_the_policy_page_is_read_with_the_read_scope_and_asks_for_a_login(api, neo4j_db):
    assert api.get("/ui/policy", follow_redirects=False).status_code == 303
    reader = new_tenant(neo4j_db, scopes=("read",), clearance="public")
    login(api, reader)
    assert "<code>default</code>" in clean(api.get("/ui/policy"))


# -- episodes and reflection -----------------------------------------------------------------------------------------
def episodes(store) -> dict[str, list]:
    """Three train rides and a taxi (internal), two secret clinic visits, and one episode whose text is markup."""
    rides = [store.add_fact("Alice", "took", "the 8:10 train", kind="episodic", valid_from=f"2025-05-0{d}T08:10:00Z",
                            object_is_entity=False, statement="Alice took the 8:10 train") for d in (5, 6, 7)]
    taxi = store.add_fact("Alice", "took", "a taxi", kind="episodic", valid_from="2025-05-08T08:10:00Z",
                          object_is_entity=False, statement=f"Alice took a taxi {HOSTILE}", scope={"workflow": "chat"})
    secret = [store.add_fact("Alice", "visited", "the clinic", kind="episodic",
                             valid_from=f"2025-05-0{d}T15:00:00Z", object_is_entity=False, sensitivity="secret",
                             statement="Alice visited the clinic") for d in (5, 6)]
    return {"rides": rides, "taxi": [taxi], "secret": secret}


def test_the_episodes_page_lists_an_entitys_episodes_in_time_order_paged_by_key_within_the_keys_clearance(
        api, neo4j_db, tenant_a, monkeypatch):
    made = episodes(store_of(neo4j_db, tenant_a))
    login(api, tenant_a)  # an internal key
    # the entity's page links to its episodes; with no entity or session the page asks for one
    assert 'href="/ui/timeline?entity=Alice"' in clean(api.get("/ui/entities/Alice"))
    assert "Name an entity or a session" in clean(api.get("/ui/timeline"))
    page = clean(api.get("/ui/timeline", params={"entity": "Alice"}))
    # then the internal episodes come in time order, the markup escaped, the secret visits absent
    order = [page.index(f'href="/ui/facts/{f.fact_id}"') for f in made["rides"] + made["taxi"]]
    assert order == sorted(order) and ESCAPED in page and "chat" in page
    assert "clinic" not in page and not any(f.fact_id in page for f in made["secret"])
    # a window narrows it; the listing is keyset-paged with the REST listing's cursor
    assert len(api.get("/ui/timeline.json", params={"entity": "Alice", "from_": "2025-05-07"}).json()["items"]) == 2
    monkeypatch.setattr(episode_pages, "SHOWN", 3)
    first = api.get("/ui/timeline.json", params={"entity": "Alice"}).json()
    assert [f["fact_id"] for f in first["items"]] == [f.fact_id for f in made["rides"]] and first["next_cursor"]
    second = api.get("/ui/timeline.json", params={"entity": "Alice", "cursor": first["next_cursor"]}).json()
    assert [f["fact_id"] for f in second["items"]] == [made["taxi"][0].fact_id] and second["next_cursor"] is None
    assert 'rel="next"' in clean(api.get("/ui/timeline", params={"entity": "Alice"}))
    # a cursor of another window is bad input, said as a page
    assert api.get("/ui/timeline", params={"entity": "Bob", "cursor": first["next_cursor"]}).status_code == 422


def test_the_reflect_form_shows_the_proposals_and_writes_only_its_ledger_event(api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    made = episodes(store)
    login(api, tenant_a)
    page = clean(api.get("/ui/timeline", params={"entity": "Alice", "from_": "2025-05-01"}))
    assert 'action="/ui/reflect"' in page and 'name="from_" value="2025-05-01"' in page
    facts_before = [f.version_id for f in store.facts(subject="Alice")]
    # a post without the page's token runs nothing
    forged = api.post("/ui/reflect", data={"entity": "Alice", "csrf": "forged"})
    assert forged.status_code in (400, 403) and "Alice took the 8:10 train" not in forged.text
    assert store.audit(operation="reflect").items == []
    # when the person reflects with the token, then the recurring ride is proposed with its episodes, not the secret
    shown = clean(api.post("/ui/reflect", data={"entity": "Alice", "from_": "2025-05-01", "csrf": token_of(page)}))
    assert "Alice took the 8:10 train" in shown and "3 times" in shown and "proposer: recurrence" in shown
    assert all(f'href="/ui/facts/{f.fact_id}"' in shown for f in made["rides"]) and "clinic" not in shown
    # and nothing semantic was written: one ledger event says it ran
    assert [f.version_id for f in store.facts(subject="Alice")] == facts_before
    assert len(store.audit(operation="reflect").items) == 1


def _token(api) -> str:
    """The session's CSRF token, as the inspector derives it (for a key that may open no page to carry it)."""
    return hmac.new(api.cookies[COOKIE].encode(), b"credo-inspector-csrf", hashlib.sha256).hexdigest()[:40]


def test_the_reflect_form_refuses_a_key_without_the_write_scope(api, neo4j_db):
    caller = new_tenant(neo4j_db, scopes=tuple(s for s in SCOPES if s != "write"))
    episodes(store_of(neo4j_db, caller))
    login(api, caller)
    refused = api.post("/ui/reflect", data={"entity": "Alice", "csrf": _token(api)})
    assert refused.status_code == 403 and "&#39;write&#39;" in refused.text and "8:10" not in refused.text


# -- the marks of a fact ---------------------------------------------------------------------------------------------
RULE = "Deploys to production need a passing canary"


def test_the_why_page_shows_the_write_plan_the_verification_operational_evidence_and_weak(api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    at = datetime(2025, 3, 1, 9, tzinfo=timezone.utc)
    store.ingest_messages("s", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                                 "text": f"{RULE}. {HOSTILE}", "at": at}])
    rule = store.remember("s", f"{RULE}. {HOSTILE}", f"{RULE} {HOSTILE}", subject="production", predicate="deploy_rule",
                          operational=True, valid_from="2025-01-01")
    # the person says yes to "I will remember that ..." (a surfaced write serves only after consent)
    _shown, yes = store.ingest_messages("s", [
        {"index": 1, "role": "assistant", "origin": "agent", "author": "agent", "text": rule.surface, "at": at},
        {"index": 2, "role": "user", "origin": "human_input", "author": "alice", "text": "Yes, keep that.", "at": at}])
    store.consent(rule.fact_id, "accept", message_id=yes.source_id)
    edge = store.add_fact("Alice", "reports_to", "Bob", valid_from="2025-01-01", statement="Alice reports to Bob")
    store.cite(edge.fact_id, store.add_source("tool_result", "org-chart API: alice.manager = bob").source_id)
    review = store_of(neo4j_db, tenant_a, verifier=ReviewQueue())
    item = review.verify(edge.fact_id).review_item
    review.review(item.item_id, "approve", reason="checked the HR record")
    login(api, tenant_a)
    # the operational rule: admitted by the default policy, not verified, held for want of direct evidence
    page = clean(api.get(f"/ui/facts/{rule.fact_id}"))
    assert "Admitted by write policy <code>default</code>: semantic" in page
    assert "Verification: not verified" in page and ESCAPED in page
    assert "Operational (it can change production): missing" in page and "held as a hypothesis" in page
    assert "Weak:" not in page
    # the relation from one tool call: weak, and approved by a person through the review queue
    page = clean(api.get(f"/ui/facts/{edge.fact_id}"))
    assert "Weak: asserted once by one tool call." in page and "by review" in page
    assert "checked the HR record" in page and "Operational" not in page
    # where the fact is listed, its operational mark follows it
    assert "operational: held until direct evidence" in clean(api.get("/ui/entities/production"))
    assert "operational: held until direct evidence" in clean(api.get("/ui/entities", params={"q": "production"}))


def test_the_why_page_of_a_secret_fact_answers_404_to_an_internal_key(api, neo4j_db, tenant_a):
    secret = store_of(neo4j_db, tenant_a).add_fact("Acme", "codename", "Bluebird", valid_from="2024-01-01",
                                                   object_is_entity=False, sensitivity="secret")
    login(api, tenant_a)
    answer = api.get(f"/ui/facts/{secret.fact_id}")
    assert answer.status_code == 404 and "Bluebird" not in answer.text


# -- a preference's drift item in the queues -------------------------------------------------------------------------
def drifted(store) -> str:
    """A remembered preference accepted ten times then rejected until a drift item opens; its fact id."""
    store.set_tenant_flag("preference_validation", enabled=True)
    store.set_write_policy({"semantic": {"visible": "logged"}})  # the preference serves at once (no consent step)
    at = datetime(2025, 6, 1, 9, tzinfo=timezone.utc)
    store.ingest_messages("p", [{"index": 0, "role": "user", "origin": "human_input", "author": "alice",
                                 "text": f"I prefer short answers {HOSTILE}", "at": at}])
    fact = store.turn("p").remember(f"I prefer short answers {HOSTILE}", f"Alice prefers short answers {HOSTILE}",
                                    category="preference")
    for _ in range(10):
        store.preference_outcome(fact.fact_id, "accepted")
    while store.preference_outcome(fact.fact_id, "rejected").drift is None:
        pass
    return fact.fact_id


def test_a_drift_item_in_the_queues_shows_the_preference_and_what_drifted_and_settles(api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    fact_id = drifted(store)
    [item] = store.conflicts()
    posterior = store.preference(fact_id)
    login(api, tenant_a)
    page = clean(api.get("/ui/queues"))
    # then the item names the preference (escaped), its α, β and strength, and the two views that drifted apart
    assert f'id="conflict-{item.conflict_id}"' in page and ESCAPED in page
    assert f"α {posterior.alpha:.1f} · β {posterior.beta:.1f} · strength {posterior.strength:.2f}" in page
    assert f"put its strength at {item.drift.short_mean:.2f}" in page and f"{item.drift.long_mean:.2f}" in page
    assert "Keep the preference" in page and "Succession" not in page
    assert api.get("/ui/queues.json").json()["preferences"][fact_id]["alpha"] == posterior.alpha
    # when the person keeps the preference, then the item is settled and the preference stands
    done = api.post(f"/ui/conflicts/{item.conflict_id}/resolve", follow_redirects=False,
                    data={"decision": "reject", "reason": "a bad week", "csrf": token_of(page)})
    assert done.status_code == 303 and "flash=resolved" in done.headers["location"]
    assert store.conflicts() == [] and store.preference(fact_id).drift is None
    assert store.why(fact_id).fact.state == "active"


def test_a_secret_preferences_drift_item_does_not_appear_for_an_internal_key(api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    store.set_tenant_flag("preference_validation", enabled=True)
    secret = store.add_fact("Alice", "prefers", "the night train to Vienna", valid_from="2025-01-01",
                            object_is_entity=False, sensitivity="secret")
    for _ in range(10):
        store.preference_outcome(secret.fact_id, "accepted")
    while store.preference_outcome(secret.fact_id, "rejected").drift is None:
        pass
    [item] = store.conflicts()  # the store's own principal sees it
    login(api, tenant_a)  # an internal key does not
    page = clean(api.get("/ui/queues"))
    assert item.conflict_id not in page and "Vienna" not in page and "No open conflict" in page
    assert api.get("/ui/queues.json").json()["preferences"] == {}


# -- the transition check --------------------------------------------------------------------------------------------
def test_the_transition_page_shows_the_three_dimensions_with_their_findings_within_the_keys_clearance(
        api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    before = (datetime.now(timezone.utc) - timedelta(seconds=1)).isoformat()
    plain = store.add_fact("Acme", "plan", f"gold {HOSTILE}", valid_from="2024-01-01", object_is_entity=False)
    store.add_fact("Acme", "codename", "Bluebird", valid_from="2024-01-01", object_is_entity=False,
                   sensitivity="secret")
    after = (datetime.now(timezone.utc) + timedelta(seconds=1)).isoformat()
    login(api, tenant_a)  # an internal key
    assert "Give the two known times" in clean(api.get("/ui/transition"))
    page = clean(api.get("/ui/transition", params={"known_before": before, "known_after": after}))
    report = api.get("/ui/transition.json", params={"known_before": before, "known_after": after}).json()["report"]
    # then each dimension says ok or failed; the operator's ungrounded add is a finding of faithfulness (not strict)
    for name in ("coverage", "preservation", "faithfulness"):
        state = "ok" if report[name]["ok"] else "failed"
        assert f'id="dimension-{name}"' in page and f'{name.capitalize()}: <span class="state">{state}</span>' in page
    assert [f["fact_id"] for f in report["faithfulness"]["findings"]] == [plain.fact_id]
    assert f'href="/ui/facts/{plain.fact_id}"' in page
    # and the secret write is withheld, counted, never named
    assert report["withheld"] >= 1 and 'id="withheld"' in page and "Bluebird" not in page
    # an inverted window is a problem page naming the field
    assert api.get("/ui/transition", params={"known_before": after, "known_after": before}).status_code == 422


def test_the_new_pages_are_in_the_navigation(api, tenant_a):
    login(api, tenant_a)
    nav = clean(api.get("/ui/entities")).split("</nav>")[0]
    for path in ("/ui/policy", "/ui/timeline", "/ui/transition"):
        assert f'href="{path}"' in nav
