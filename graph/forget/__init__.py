"""Repositories of forgetting: read content before it goes, remove it from every place, purge, find residue.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ()
