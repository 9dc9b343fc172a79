"""graph/access."""
