"""Recall: search, the context package, read receipts, the utility ledger, tiers and the scheduled `maintain` sweep.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ()
