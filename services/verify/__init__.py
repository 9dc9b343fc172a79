"""Verification beyond the quote gate (DESIGN §11): a pluggable verifier judges whether a fact's statement says no
more than its source excerpt (supported, over-reach of a named kind, unsupported), and a human review queue where a
person decides. The verdict is recorded as its own evidence (`verified_by`), never as a guarantee.

Other capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters
are open to all."""

PUBLIC = ('verify',)  # extraction (gate) runs the configured verifier on its candidates
