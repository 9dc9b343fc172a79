"""Repositories of preference validation: the tenant flags, the posterior versions, the drift items.

`drift` is public: the conflicts queue (services/facts/conflicts.py) closes a drift item through it. Other
capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters are
open to all."""

PUBLIC = ('drift',)
