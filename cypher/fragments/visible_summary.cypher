// Whether summary version VERSION may be served to a caller cleared for the labels POINT: a summary is as
// sensitive as the most sensitive input of its trace, followed through the summaries it derives from (a fact
// version by its label, a source as unlabelled, so 'internal'); a summary carries no label of its own.
('*' IN POINT
 OR all(input__ IN [(VERSION)-[:DERIVED_FROM*1..]->(node__) WHERE node__:Fact OR node__:Source | node__]
        WHERE @visible(input__, POINT)))
