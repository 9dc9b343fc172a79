"""services/core."""
