"""api/mcp."""
