"""Procedural memory: recipes keyed by (tenant, task shape), earned by explaining a success, kept by a
usage-weighted success rate and retired by reward decay (DESIGN §9).

A capability of its own, not a part of `recall`: recipes are their own nodes with their own writes (recording,
outcomes, consent), not a way of reading facts. Nothing of another capability imports it (surfaces reach it through
the Store), so PUBLIC is empty. Other capabilities import from here only the modules in PUBLIC
(tests/test_architecture.py); `core` and the adapters are open to all."""

PUBLIC = ()
