"""services/forget."""
