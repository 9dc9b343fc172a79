// Migration 0001: identities, lookups, full-text and vector indexes for the graph of DESIGN.md §1.
// Each statement is idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.entity_id IS UNIQUE;
CREATE CONSTRAINT entity_norm IF NOT EXISTS FOR (n:Entity) REQUIRE (n.tenant, n.norm) IS UNIQUE;
CREATE CONSTRAINT alias_norm IF NOT EXISTS FOR (n:Alias) REQUIRE (n.tenant, n.norm) IS UNIQUE;
CREATE CONSTRAINT source_id IF NOT EXISTS FOR (n:Source) REQUIRE n.source_id IS UNIQUE;
CREATE CONSTRAINT fact_version_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.version_id IS UNIQUE;
CREATE CONSTRAINT summary_version_id IF NOT EXISTS FOR (n:Summary) REQUIRE n.version_id IS UNIQUE;
CREATE CONSTRAINT audit_event_id IF NOT EXISTS FOR (n:AuditEvent) REQUIRE n.event_id IS UNIQUE;
CREATE CONSTRAINT clock_tenant IF NOT EXISTS FOR (n:Clock) REQUIRE n.tenant IS UNIQUE;
CREATE CONSTRAINT predicate_name IF NOT EXISTS FOR (n:Predicate) REQUIRE (n.tenant, n.name) IS UNIQUE;
CREATE CONSTRAINT migration_version IF NOT EXISTS FOR (n:SchemaMigration) REQUIRE n.version IS UNIQUE;

CREATE INDEX fact_fact_id IF NOT EXISTS FOR (n:Fact) ON (n.fact_id);
CREATE INDEX fact_subject IF NOT EXISTS FOR (n:Fact) ON (n.subject_id);
CREATE INDEX fact_object IF NOT EXISTS FOR (n:Fact) ON (n.object_id);
CREATE INDEX fact_predicate IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.predicate);
CREATE INDEX fact_state IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.state);
CREATE INDEX fact_object_value IF NOT EXISTS FOR (n:Fact) ON (n.predicate, n.object_value);
CREATE INDEX summary_summary_id IF NOT EXISTS FOR (n:Summary) ON (n.summary_id);
CREATE INDEX source_session IF NOT EXISTS FOR (n:Source) ON (n.tenant, n.session_id, n.generation, n.index);
CREATE INDEX audit_subject IF NOT EXISTS FOR (n:AuditEvent) ON (n.tenant, n.subject_id);

CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.statement, n.quote];
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text];

CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
