"""Repositories of truth maintenance: DEPENDS_ON edges and their walk, summary versions.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('dependencies', 'summaries')
