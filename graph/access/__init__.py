"""Repositories of access: API keys (hashes only) and inspector sessions.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ()
