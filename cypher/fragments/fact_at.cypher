// The fact version VERSION as an as-of read serves it at known point POINT (null = believed now), as a map: its
// properties but the embedding, its state flag and whether it is disputed then (cypher/fragments/fact_fields.cypher,
// flag_at.cypher, disputed_at.cypher), its instants as ISO 8601 text (fact_instants.cypher). The one projection of
// the as-of reads (graph/core/versions.py turns it into a schema FactVersion).
VERSION {@fact_fields(VERSION, POINT), @fact_instants(VERSION), disputed: @disputed_at(VERSION, POINT)}
