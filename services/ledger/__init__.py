"""services/ledger."""
