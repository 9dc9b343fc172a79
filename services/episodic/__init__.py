"""Episodic memory (DESIGN §9): episodes are facts of kind "episodic", written append-only (no dedup, no conflict
rule: services/facts/record.py), read by time (`timeline`), rolled off after their workflow's TTL by the forgetting
machinery (`roll_off`), and read by reflection, which proposes semantic candidates and writes nothing semantic.

A capability of its own: its reads scan episodes by time, not by relevance, and its roll-off is a use of `forget`.
`maintain` (recall) runs its roll-off, so PUBLIC names `roll_off`; surfaces reach the rest through the Store. Other
capabilities import from here only the modules in PUBLIC (tests/test_architecture.py); `core` and the adapters are
open to all."""

PUBLIC = ("roll_off",)
