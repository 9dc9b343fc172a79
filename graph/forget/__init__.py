"""graph/forget."""
