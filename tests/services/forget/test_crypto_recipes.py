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
