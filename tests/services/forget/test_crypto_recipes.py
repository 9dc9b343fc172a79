"""Recipes in crypto-erasure mode (issue 27, docs/crypto-erasure.md): a recipe's task shape and steps are sealed under
the key of the source it was earned by (`source:<because>`), so its raw node holds no step in clear, reads give the
text back, and once that source is forgotten (its key destroyed) an old copy of the node cannot be read. The shape
key stays plain: recipes are looked up by it (the documented limit)."""

from __future__ import annotations

from credo.cypher import Query
from credo.services.core.crypto import cipher_for
from tests.services.forget.test_crypto_erasure import cstore, keys  # noqa: F401
from tests.services.forget.test_forget_recipes import SECRET, SHAPE, STEPS

_RECIPES = Query("raw", "MATCH (r:Recipe {tenant: $tenant}) RETURN r {.*} AS props ORDER BY r.known_from",
                 frozenset())
_ALL = Query("raw", "MATCH (n {tenant: $tenant}) RETURN n {.*, embedding: null} AS props", frozenset())


def test_a_recipes_shape_and_steps_are_sealed_under_its_sources_key_and_erased_with_it(cstore, keys, tenant):
    # given a recipe earned by a tool result, with two versions (an outcome made the second), in crypto mode
    success = cstore.add_source("tool_result", "rotation finished: keys rotated, vault sealed again")
    made = cstore.record_recipe(SHAPE, STEPS, because=success.source_id)
    cstore.recipe_outcome(made.recipe_id, "success")
    # then no raw version holds a step or the task shape in clear, yet reads give them back
    backup = [r["props"] for r in cstore._db.query(_RECIPES, tenant=tenant)]
    assert len(backup) == 2
    for version in backup:
        assert version["task_shape"].startswith("enc1:") and all(s.startswith("enc1:") for s in version["steps"])
    assert SECRET not in repr([r["props"] for r in cstore._db.query(_ALL, tenant=tenant)])
    [found] = cstore.recipes(SHAPE)
    assert (found.task_shape, found.steps) == (SHAPE, STEPS)
    # and a restore job holding the key store opens the backup copy, under the source's key
    reader = cipher_for("on", keys, tenant)
    assert [reader.open(tenant, s) for s in backup[0]["steps"]] == STEPS
    # when the source is forgotten (the recipe goes with it)
    done = cstore.forget(success.source_id, reason="tool output leaked a passphrase", actor="ops")
    assert made.recipe_id in done.forgotten and done.report.complete, done.report.residue
    # then the old copies cannot be opened any more, and nothing readable is left in the store
    fresh = cipher_for("on", keys, tenant)
    for version in backup:
        assert fresh.open(tenant, version["task_shape"]) is None
        assert [fresh.open(tenant, s) for s in version["steps"]] == [None] * len(STEPS)
    assert SECRET not in repr([r["props"] for r in cstore._db.query(_ALL, tenant=tenant)])
    assert done.report.crypto_erased is True, done.report.crypto_reason


def test_forgetting_a_recipe_by_id_says_which_key_still_opens_its_old_copies_and_what_stays_plain(cstore, keys, tenant):
    # given a recipe earned by a tool result, in crypto mode, and its source's key
    success = cstore.add_source("tool_result", "rotation finished: keys rotated, vault sealed again")
    made = cstore.record_recipe(SHAPE, STEPS, because=success.source_id)
    [key_id] = [k for k in keys.list(tenant) if k.startswith(f"source:{success.source_id}~")]
    # when the recipe alone is forgotten (its source stays remembered)
    done = cstore.forget(made.recipe_id, reason="the steps named a passphrase", actor="ops")
    # then its content is gone from the store, but not crypto-erased: the report names the source's key, says it is
    # alive while the source is remembered (so old copies stay readable with it), and that the shape key was never
    # sealed; it never pretends the recipe was stored in plaintext
    report = done.report
    assert report.complete and report.crypto_erased is False
    why = report.crypto_reason
    assert f"recipe {made.recipe_id}" in why and f"key {key_id}" in why and f"source {success.source_id}" in why
    assert "task shape and steps" in why and "still readable" in why and "shape key" in why
    assert f"forget source {success.source_id}" in why
    assert "plaintext before crypto mode" not in why
    # when the source is forgotten too, a fresh report on the recipe says its old copies are unreadable now
    cstore.forget(success.source_id, reason="tool output leaked a passphrase", actor="ops")
    later = cstore.verify_forgotten(made.recipe_id)
    assert later.crypto_erased is True and f"key {key_id}" in later.crypto_reason
    assert "can no longer be decrypted" in later.crypto_reason and "shape key" in later.crypto_reason
