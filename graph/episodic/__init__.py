"""Repositories of episodic memory: the timeline scan and the roll-off's candidates.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ()
