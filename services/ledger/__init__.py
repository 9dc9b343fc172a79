"""The audit ledger: read it with filters, verify its hash chain (`rules.py`).

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ()
