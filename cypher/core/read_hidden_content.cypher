// Whether an id names content above the caller's clearance, for the acts that change or remove it (revise, curate,
// forget, purge, merge): a fact id, or a version id of a fact, with a version the caller may not see (with
// $current_only, one believed now); a source the caller may not see (cypher/fragments/visible_source.cypher: its own
// label, or evidence for such a version); an entity some such version is about (its own id or an id merged into
// it, at any known time); a summary with a version the caller may not see; a recipe with a version the caller may
// not see (its label is at least its source's, services/procedural/recipes.py). Such an id answers NotFound to the caller
// exactly like an id that does not exist (services/core/clearance.py).
// $tenant        tenant id
// $id            the id
// $current_only  facts: only versions believed now count (a revision acts on those)
// $levels        sensitivity labels the caller may see (Tx.rows supplies them from its clearance)
// returns: hidden (boolean)
RETURN NOT '*' IN $levels AND (
  EXISTS { MATCH (f:Fact) WHERE f.fact_id = $id AND f.tenant = $tenant
             AND (NOT $current_only OR f.known_to IS NULL) AND NOT @visible(f, $levels) }
  OR EXISTS { MATCH (v:Fact {version_id: $id}) WHERE v.tenant = $tenant
              MATCH (f:Fact {fact_id: v.fact_id}) WHERE f.tenant = $tenant
                AND (NOT $current_only OR f.known_to IS NULL) AND NOT @visible(f, $levels) }
  OR EXISTS { MATCH (s:Source {source_id: $id}) WHERE s.tenant = $tenant AND NOT @visible_source(s, $levels) }
  OR EXISTS { MATCH (e:Entity {entity_id: $id}) WHERE e.tenant = $tenant
              MATCH (f:Fact)-[:ABOUT]->(:Entity)-[:MERGED_INTO*0..]->(e)
              WHERE NOT @visible(f, $levels) }
  OR EXISTS { MATCH (s:Summary {summary_id: $id}) WHERE s.tenant = $tenant AND NOT @visible_summary(s, $levels) }
  OR EXISTS { MATCH (r:Recipe {recipe_id: $id}) WHERE r.tenant = $tenant AND NOT @visible(r, $levels) }
) AS hidden
