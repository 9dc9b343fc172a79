"""Access: API keys (the secret shown once) and the inspector's server-side sessions.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ()
