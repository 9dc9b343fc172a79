// Whether the entity whose ids (the entity and every id merged into it) are the list VERSION may be named to a
// caller cleared for the labels POINT: some fact version about one of them (subject or object, any state, any
// known time) is visible to it. An entity that exists only through facts above the caller's clearance is not
// found, exactly like a name no entity has.
('*' IN POINT
 OR EXISTS { MATCH (about__:Entity)<-[:ABOUT]-(fact__:Fact) WHERE about__.entity_id IN VERSION
             AND @visible(fact__, POINT) })
