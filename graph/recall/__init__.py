"""Repositories of recall: the search paths, the context package's extra reads, receipts and usage.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('receipts',)
