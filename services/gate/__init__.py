"""The write gate: sources and messages, `remember` (only what a human message says), acceptance, admission,
extraction, why a fact is held, and its PROV export.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

# consent: a recipe's consent takes the person's yes by its rules; attest: and refuses a yes the consenting key vouched
# for itself (the tenant flag attested_human_messages)
PUBLIC = ('rules', 'consent', 'attest')
