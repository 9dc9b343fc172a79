"""Running Neo4j and changing its schema: provisioning and migrations."""
