"""services/gate."""
