"""graph/recall."""
