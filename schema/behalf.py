"""Who a caller says it acts for: the `actor` / `by` a request names, recorded apart from the acting key.

The ledger's actor is always the authenticated key (or the local process user); what a body claims is kept as
`on_behalf_of`, validated here once for every command that takes it: trimmed, non-blank, at most BEHALF_MAX
characters, free of invisible or control characters (a zero-width space must not make two names look alike), naming
someone (a letter or a digit), and not dressed as one of the ledger's own actors (`key:…`, `local:…`, `system`).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import BeforeValidator, WithJsonSchema

from credo.schema.names import UNENCODABLE, encodable

BEHALF_MAX = 512
_IDENTITY = re.compile(r"^\s*(key:|local:|system\s*$)", re.IGNORECASE)  # the forms of the ledger's own actors
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})  # control, format (U+200B...), surrogate, unassigned


def check_behalf(value: object) -> object:
    """The name trimmed; ValueError naming the rule it breaks (pydantic turns it into InvalidInput(field, rule))."""
    if not isinstance(value, str):
        return value  # the `str` check refuses it with pydantic's message
    if not encodable(value):
        raise ValueError(UNENCODABLE)
    text = value.strip()
    if not text:
        raise ValueError("must name who the act is for (not blank)")
    if len(text) > BEHALF_MAX:
        raise ValueError(f"must be at most {BEHALF_MAX} characters (got {len(text)})")
    hidden = sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in _HIDDEN})
    if hidden:
        raise ValueError(f"must not hold invisible or control characters (found {', '.join(hidden)})")
    if not any(unicodedata.category(c)[0] in "LN" for c in text):
        raise ValueError("must name someone: hold at least a letter or a digit")
    if _IDENTITY.match(text):
        raise ValueError("must not look like an acting identity (key:…, local:…, system): the ledger records the "
                         "acting key itself; name the person or policy you act for")
    return text


OnBehalfOf = Annotated[
    str, BeforeValidator(check_behalf),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": BEHALF_MAX,
                    "description": "who you act for (a person or a policy), recorded in the audit ledger as "
                                   "on_behalf_of beside the API key that acted"}),
]
"""A validated "acting for" name (a command's `actor` or `by`)."""
