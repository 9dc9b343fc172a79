// Migration 0005: search (issue 11). The full-text indexes also index `tenant`, so a search's Lucene query carries
// its tenant as a required clause and never walks other tenants' postings (the index is shared by tenants);
// summaries get a full-text index of their own. Each statement is idempotent; statements end with ';'.

DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.statement, n.quote, n.tenant];
DROP INDEX entity_text IF EXISTS;
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text, n.tenant];
CREATE FULLTEXT INDEX summary_text IF NOT EXISTS FOR (n:Summary) ON EACH [n.topic, n.text, n.tenant];
CALL db.awaitIndexes(600);
