"""Forgetting: one id or a whole scope, the residue report that verifies it, the probe kept until purge, and
crypto-erasure of what was sealed.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('forget', 'verify')
