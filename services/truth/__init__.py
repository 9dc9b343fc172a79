"""services/truth."""
