"""services/recall."""
