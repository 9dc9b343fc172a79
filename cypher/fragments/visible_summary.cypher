// Whether summary version VERSION may be served to a caller cleared for the labels POINT: a summary is as
// sensitive as the most sensitive input of its trace, followed through the summaries it derives from (a fact
// version by its label, a source as cypher/fragments/visible_source.cypher says: its label, and no evidence for a
// version above the clearance); a summary carries no label of its own.
('*' IN POINT
 OR all(input__ IN [(VERSION)-[:DERIVED_FROM*1..]->(node__) WHERE node__:Fact OR node__:Source | node__]
        WHERE (input__:Fact AND @visible(input__, POINT)) OR (input__:Source AND @visible_source(input__, POINT))))
