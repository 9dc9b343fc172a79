"""The write policy page lists the policy's versions (issue 27 item 1): newest first, the defaults last, who set each,
its known interval and what it changed, each a link that opens the page as known then; stored text escaped; older
versions a page further; read with the read scope."""

from __future__ import annotations

from urllib.parse import quote

from credo.api.inspector import policy_pages
from credo.schema.api_keys import Principal
from tests.api.conftest import new_tenant
from tests.api.inspector.test_inspector_pages import login
from tests.api.inspector.test_memory_pages import ESCAPED, HOSTILE, clean, store_of


def test_the_policy_page_lists_its_versions_each_opening_the_page_as_known_then(api, neo4j_db, tenant_a):
    store = store_of(neo4j_db, tenant_a)
    # given two versions, the second set by a principal whose actor name is markup, with a workflow named in markup
    first = store.set_write_policy({"semantic": {"visible": "logged"}})
    marked = store.for_principal(Principal(tenant=tenant_a.name, actor=HOSTILE))
    second = marked.set_write_policy({"episodic": {"ttl": {"default": "P7D", HOSTILE: "PT1H"}}})
    login(api, tenant_a)
    page = clean(api.get("/ui/policy"))
    listed = page.split('id="policy-versions"')[1]
    # then the versions come newest first, the defaults last, each with who set it and what it changed
    order = [listed.index(f'id="version-{v}"') for v in (second.policy_id, first.policy_id, "default")]
    assert order == sorted(order)
    assert f"{ESCAPED}</td>" in listed and f"{ESCAPED} PT1H" in listed and HOSTILE not in page
    assert "semantic visible: logged → default" in listed and "semantic visible: default → logged" in listed
    assert "never set" in listed and "the defaults" in listed
    # each stored version links to the page as known from its time, which then shows that version in force
    link = f'href="/ui/policy?known_at={quote(first.known_from.isoformat(), safe="/")}#versions"'
    assert link in listed
    then = clean(api.get("/ui/policy", params={"known_at": first.known_from.isoformat()}))
    assert f"Policy <code>{first.policy_id}</code>" in then and f"to {second.known_from.isoformat()}" in then
    assert "semantic visible: default → logged" in then.split('id="policy-versions"')[1]
    # the JSON twin carries the same page of versions
    twin = api.get("/ui/policy.json").json()
    assert [v["policy_id"] for v in twin["versions"]] == [second.policy_id, first.policy_id, "default"]
    assert twin["versions"][0]["set_by"] == HOSTILE and twin["next_after"] is None


def test_older_versions_are_a_page_further_and_a_bad_after_answers_an_error_page(api, neo4j_db, tenant_a,
                                                                                    monkeypatch):
    store = store_of(neo4j_db, tenant_a)
    made = [store.set_write_policy({"relational": {"visible": v}}) for v in ("silent", "surfaced", "logged")]
    monkeypatch.setattr(policy_pages, "SHOWN", 2)
    login(api, tenant_a)
    page = clean(api.get("/ui/policy"))
    assert f'id="version-{made[2].policy_id}"' in page and f'id="version-{made[0].policy_id}"' not in page
    assert f'href="/ui/policy?after={made[1].policy_id}#versions" rel="next"' in page
    older = clean(api.get("/ui/policy", params={"after": made[1].policy_id}))
    listed = older.split('id="policy-versions"')[1]
    assert f'id="version-{made[0].policy_id}"' in listed and 'id="version-default"' in listed
    assert f'id="version-{made[2].policy_id}"' not in listed and 'rel="next"' not in listed
    refused = api.get("/ui/policy", params={"after": "wp_unknown"})
    assert refused.status_code == 422 and "after" in refused.text and "<script" not in refused.text.split("<main")[1]


def test_a_read_scoped_public_key_sees_the_versions(api, neo4j_db):
    reader = new_tenant(neo4j_db, scopes=("read",), clearance="public")
    store_of(neo4j_db, reader).set_write_policy({"semantic": {"visible": "logged"}})
    login(api, reader)
    page = clean(api.get("/ui/policy"))
    assert page.count('class="policy-version"') == 2 and "semantic visible: default → logged" in page
