"""Forgetting reaches recipes (DESIGN.md §7, §9): a tenant-wide forget, forgetting the source a recipe was earned by,
and forgetting a recipe by its id each scrub every version's shape, key and steps, keep a content-free tombstone, and
a raw scan of the tenant finds the words nowhere; the residue report is incomplete while a version keeps content."""

from __future__ import annotations

import re

import pytest

from credo.cypher import Query
from credo.schema.errors import NotFound

SECRET = "quixotrombe"  # a word no other text of the tenant holds
SHAPE = "rotate the vault credentials"
STEPS = ["open the vault console", f"type the passphrase {SECRET}", "confirm the rotation"]

_CONTENT = Query("raw", "MATCH (n {tenant: $tenant}) WHERE NOT n:ForgetProbe WITH n, [k IN keys(n) WHERE n[k] IS :: STRING "
                 "AND n[k] CONTAINS $text | n[k]] + [k IN keys(n) WHERE n[k] IS :: LIST<STRING> "
                 "AND any(s IN n[k] WHERE s CONTAINS $text) | reduce(all = '', s IN n[k] | all + ' ' + s)] AS values WHERE values <> [] "
                 "RETURN labels(n) AS labels, values", frozenset())
_WRITE_BACK = Query("raw", "MATCH (r:Recipe {tenant: $tenant, recipe_id: $recipe_id}) SET r.steps = $steps",
                    frozenset())
_VERSIONS = Query("raw", "MATCH (r:Recipe {tenant: $tenant, recipe_id: $recipe_id}) RETURN r {.*} AS r "
                         "ORDER BY r.known_from", frozenset())


def _holding(store, text: str) -> list[dict]:
    """Nodes of the tenant holding `text` as a word in a string property or a list of strings."""
    word = re.compile(rf"(?<![0-9A-Za-z_-]){re.escape(text)}(?![0-9A-Za-z_-])")
    rows = store._db.query(_CONTENT, tenant=store.tenant, text=text)
    return [r["labels"] for r in rows if any(word.search(v) for v in r["values"])]


@pytest.fixture
def success(store):
    """The tool result that earned the recipe."""
    return store.add_source("tool_result", "rotation finished: keys rotated, vault sealed again")


@pytest.fixture
def recipe(store, success):
    """A recipe with two versions (an outcome made the second), its steps holding the secret word."""
    made = store.record_recipe(SHAPE, STEPS, because=success.source_id)
    store.recipe_outcome(made.recipe_id, "success")
    assert _holding(store, SECRET) and _holding(store, "credentials")
    return made


def _tombstoned(store, recipe_id: str) -> list[dict]:
    versions = [r["r"] for r in store._db.query(_VERSIONS, tenant=store.tenant, recipe_id=recipe_id)]
    assert len(versions) == 2
    for v in versions:
        assert v.get("forgotten_at") is not None and v["recipe_id"] == recipe_id and v["version_id"]
        assert not {"steps", "task_shape", "shape_key"} & set(v), v
    return versions


def test_a_tenant_wide_forget_scrubs_every_recipe_version_and_the_raw_scan_finds_its_words_nowhere(store, recipe):
    # when the tenant is forgotten
    job = store.forget_tenant(reason="tenant closed", actor="ops")
    # then its report is complete, every version of the recipe is a content-free tombstone, no node holds its words
    assert job.state == "complete" and job.report.complete, job.report.residue
    _tombstoned(store, recipe.recipe_id)
    assert _holding(store, SECRET) == [] and _holding(store, "credentials") == []
    assert store.recipes(SHAPE) == [] and store.recipes(SHAPE, known_at=recipe.known_from) == []


def test_a_recipe_whose_content_is_written_back_makes_the_tenant_report_incomplete_naming_recipes(store, recipe):
    store.forget_tenant(reason="tenant closed", actor="ops")
    # when a version's steps come back after the forget (a restore, a stray write)
    store._db.query(_WRITE_BACK, write=True, tenant=store.tenant, recipe_id=recipe.recipe_id, steps=STEPS)
    # then the tenant's report is incomplete and names recipes
    again = store.forget_tenant(reason="tenant closed", actor="ops")
    assert not again.report.complete
    assert any(r.ref == "Recipe" and "recipe versions keep content" in r.detail for r in again.report.residue)


def test_forgetting_the_source_a_recipe_was_earned_by_forgets_the_recipe(store, recipe, success):
    # when the source that earned it is forgotten
    done = store.forget(success.source_id, reason="erasure request", actor="dpo")
    # then the recipe goes with it: verified, tombstoned, never served, its words nowhere
    assert recipe.recipe_id in done.forgotten and done.report.complete, done.report.residue
    assert store.verify_forgotten(success.source_id).complete
    _tombstoned(store, recipe.recipe_id)
    assert _holding(store, SECRET) == [] and _holding(store, "credentials") == []
    assert store.recipes(SHAPE) == [] and store.recipes(SHAPE, known_at=recipe.known_from) == []
    with pytest.raises(NotFound):
        store.recipe_outcome(recipe.recipe_id, "success")


def test_a_recipe_left_holding_its_steps_after_its_source_is_forgotten_is_residue_of_the_source(store, recipe, success):
    store.forget(success.source_id, reason="erasure request", actor="dpo")
    store._db.query(_WRITE_BACK, write=True, tenant=store.tenant, recipe_id=recipe.recipe_id, steps=STEPS)
    report = store.verify_forgotten(success.source_id)
    assert not report.complete and any(r.place == "recipe" for r in report.residue), report.residue


def test_forgetting_a_recipe_by_its_id_scrubs_all_its_versions_and_verifies(store, recipe, success):
    other = store.record_recipe("water the plants", ["fill the can", "water each pot"], because=success.source_id)
    # when the recipe is forgotten by its id
    done = store.forget(recipe.recipe_id, reason="wrong procedure", actor="ops")
    # then every version is a tombstone, the report is complete, nothing holds its words; the other recipe stays
    assert (done.kind, done.forgotten) == ("recipe", [recipe.recipe_id])
    assert done.report.complete and done.report.tombstone is not None, done.report.residue
    _tombstoned(store, recipe.recipe_id)
    assert _holding(store, SECRET) == [] and _holding(store, "credentials") == []
    assert store.recipes(SHAPE) == [] and store.recipes(SHAPE, known_at=recipe.known_from) == []
    assert [r.recipe_id for r in store.recipes("water the plants")] == [other.recipe_id]
    assert store.verify_forgotten(recipe.recipe_id).complete
    # and a version written back raw is residue of the recipe
    store._db.query(_WRITE_BACK, write=True, tenant=store.tenant, recipe_id=recipe.recipe_id, steps=STEPS)
    report = store.verify_forgotten(recipe.recipe_id)
    assert not report.complete and any(r.place == "recipe" for r in report.residue), report.residue


def test_a_forgotten_recipe_is_previewed_then_purged_with_every_version(store, recipe):
    preview = store.forget_preview(recipe.recipe_id)
    assert (preview.kind, preview.title) == ("recipe", SHAPE)
    store.forget(recipe.recipe_id, reason="wrong procedure", actor="ops")
    report = store.purge(recipe.recipe_id)
    assert report.complete and report.purged_at is not None
    assert store._db.query(_VERSIONS, tenant=store.tenant, recipe_id=recipe.recipe_id) == []
