"""Truth maintenance: premises, the cascade that flags what lost its support, re-verification, derived summaries
and the explicit lifecycle acts.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('rules', 'cascade', 'premises', 'summaries')
