"""The write policy (DESIGN §9): `should_write(candidate, kind, ctx)`, the one function every write path calls to
learn who earns a slot, when it is written, what invalidates it and who sees it; a tenant's stored, versioned
override of the defaults; and the episodic TTL of a workflow (`ttl_for`, for roll-off).

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all. `plan` is public: the write paths of `facts`, `gate` and `procedural` call it inside their
transaction."""

PUBLIC = ('plan',)
