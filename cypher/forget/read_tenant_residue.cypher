// Places in a whole tenant that still hold content after a tenant-wide forget (counts per kind).
// clearance: not applied: forgetting reaches every copy of its target's content, whatever the clearance; the target
//   itself was checked first (graph/core/clearance.py: content above the caller's clearance answers NotFound)
// $tenant  tenant id
// $removed       the content-free text a scrubbed summary version holds
// $removed_topic the content-free topic it holds
// returns: place, ref, detail
CALL () {
  MATCH (f:Fact) WHERE f.tenant = $tenant AND (f.forgotten_at IS NULL OR f.statement IS NOT NULL OR f.embedding IS NOT NULL)
  RETURN 'node property' AS place, 'Fact' AS ref, toString(count(f)) + ' fact versions keep content' AS detail, count(f) AS n
  UNION
  MATCH (s:Source) WHERE s.tenant = $tenant AND (s.forgotten_at IS NULL OR s.text IS NOT NULL)
  RETURN 'node property' AS place, 'Source' AS ref, toString(count(s)) + ' sources keep content' AS detail, count(s) AS n
  UNION
  MATCH (m:Summary) WHERE m.tenant = $tenant AND (m.text <> $removed OR coalesce(m.topic, '') <> $removed_topic)
  RETURN 'summary' AS place, 'Summary' AS ref, toString(count(m)) + ' summary versions keep text or topic' AS detail,
         count(m) AS n
  UNION
  MATCH (e:Entity) WHERE e.tenant = $tenant AND e.forgotten_at IS NULL
  RETURN 'node property' AS place, 'Entity' AS ref, toString(count(e)) + ' entities keep names' AS detail, count(e) AS n
  UNION
  MATCH (r:Recipe) WHERE r.tenant = $tenant
    AND (r.forgotten_at IS NULL OR r.task_shape IS NOT NULL OR r.shape_key IS NOT NULL OR r.steps IS NOT NULL)
  RETURN 'node property' AS place, 'Recipe' AS ref, toString(count(r)) + ' recipe versions keep content' AS detail,
         count(r) AS n
  UNION
  MATCH (v:Verification) WHERE v.tenant = $tenant
  RETURN 'verification' AS place, 'Verification' AS ref, toString(count(v)) + ' verdicts remain' AS detail, count(v) AS n
  UNION
  MATCH (r:ReviewItem) WHERE r.tenant = $tenant
  RETURN 'review item' AS place, 'ReviewItem' AS ref, toString(count(r)) + ' review items remain' AS detail,
         count(r) AS n
  UNION
  MATCH (a:Alias) WHERE a.tenant = $tenant
  RETURN 'alias' AS place, 'Alias' AS ref, toString(count(a)) + ' aliases remain' AS detail, count(a) AS n
}
WITH place, ref, detail, n WHERE n > 0
RETURN place, ref, detail
