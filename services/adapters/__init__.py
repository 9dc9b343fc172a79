"""services/adapters."""
