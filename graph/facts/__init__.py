"""Repositories of the facts capability: entities, predicates, conflicts, dedup candidates, a fact's history.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('conflicts', 'entities', 'predicates')
