"""services/facts."""
