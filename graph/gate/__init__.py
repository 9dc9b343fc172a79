"""graph/gate."""
