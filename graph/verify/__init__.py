"""Repositories of verification: recorded verdicts (`verified_by`) and the human review queue.

`why` (gate) and the context package (recall) read a version's verdicts from `verifications`, so it is PUBLIC.
Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('verifications',)
