"""services/access."""
