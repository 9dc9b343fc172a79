"""The core every capability stands on: the context and its write transaction (the unit of work), building and
retiring versions, state flags, the served-state rule (support at a valid time), write-side clearance and sealing."""
