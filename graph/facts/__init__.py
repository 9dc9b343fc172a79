"""graph/facts."""
