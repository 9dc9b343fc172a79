"""Preference validation (DESIGN §12, issue 27 item 3), off by default behind the tenant flag
`preference_validation`: a Beta posterior per preference fact, updated by the outcomes of acting on it, and drift
between its short-term and long-term views opening an item in the conflicts queue for a person.

`drift` is public: the conflicts queue (services/facts/conflicts.py) settles a drift item through it. Other
capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters are
open to all."""

PUBLIC = ('drift',)
