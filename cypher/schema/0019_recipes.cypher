// Migration 0019: procedural memory's recipes (issue 27). One :Recipe node per version: its version id is unique; a
// recipe is found by (tenant, recipe_id) (read_recipe, forget), the live ones of a shape by (tenant, shape_key)
// (read_recipes), and forgetting a source finds the recipes it earned by (tenant, because) (read_recipe_texts,
// read_recipe_residue). Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE CONSTRAINT recipe_version_id IF NOT EXISTS FOR (r:Recipe) REQUIRE r.version_id IS UNIQUE;
CREATE INDEX recipe_id IF NOT EXISTS FOR (r:Recipe) ON (r.tenant, r.recipe_id);
CREATE INDEX recipe_shape IF NOT EXISTS FOR (r:Recipe) ON (r.tenant, r.shape_key);
CREATE INDEX recipe_because IF NOT EXISTS FOR (r:Recipe) ON (r.tenant, r.because);
