"""Repositories of the write gate: sources and messages, and provenance reads.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('sources', 'provenance')
