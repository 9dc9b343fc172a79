"""graph/truth."""
