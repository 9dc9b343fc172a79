"""Facts: record, revise, read as of (valid, known), who is who, conflicts kept for a decision (the conflict rule:
`rules.py`), entities, predicates, merges, bulk import and dedup at write.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('read', 'record', 'revise', 'predicates', 'rules', 'evidence_rules', 'evidence')
