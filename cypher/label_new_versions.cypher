// Give new fact versions their tenant's partition label, when their tenant has a partition (most have none).
// $version_ids  ids of the versions just created
// returns: labelled
UNWIND $version_ids AS id
MATCH (f:Fact {version_id: id})
MATCH (p:SearchPartition {tenant: f.tenant})
SET f:$(p.label)
RETURN count(f) AS labelled
