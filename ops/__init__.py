"""Running Neo4j and changing its schema: provisioning and migrations; backup and restore; `credo serve` as a
child process (serve_process.py)."""
