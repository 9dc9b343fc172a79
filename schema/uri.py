"""The URI rule of a source: which schemes a stored `uri` may have, and which of them a page may turn into a link.

A source's `uri` is shown to people (the inspector's why-view), so a `javascript:` or `data:` URI would be a script
waiting for a click. `add_source` accepts only the schemes of URI_SCHEMES; a page links only LINK_SCHEMES and shows
any other stored value (one written before the rule) as text.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import BeforeValidator, WithJsonSchema

from credo.schema.names import UNENCODABLE, URI_MAX, encodable

URI_SCHEMES: tuple[str, ...] = ("http", "https", "urn", "mailto")
LINK_SCHEMES: frozenset[str] = frozenset({"http", "https", "mailto"})  # a urn: has no place a browser could open
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(.*)", re.DOTALL)


def scheme_of(uri: str) -> str | None:
    """The URI's scheme in lower case, or None when it has none (RFC 3986: a letter, then letters, digits, + - .)."""
    match = _SCHEME.fullmatch(uri)
    return match.group(1).lower() if match else None


def check_uri(value: object) -> object:
    """The URI unchanged (trimmed) when its scheme is allowed; ValueError naming the rule it breaks otherwise."""
    if not isinstance(value, str):
        return value  # the `str` check refuses it with pydantic's message
    if not encodable(value):
        raise ValueError(UNENCODABLE)
    if len(value) > URI_MAX:
        raise ValueError(f"must be at most {URI_MAX} characters (got {len(value)})")
    uri = value.strip()
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in uri):
        # browsers drop tabs and newlines inside a URL: "java\tscript:" would still run as javascript:
        raise ValueError("must not contain whitespace or control characters")
    if any(unicodedata.category(c) == "Cf" for c in uri):
        # a bidi override (U+202E) or a zero-width character makes the link read as another address
        raise ValueError("must not contain invisible format characters (bidi overrides, zero-width characters)")
    scheme = scheme_of(uri)
    if scheme not in URI_SCHEMES:
        raise ValueError(f"must be an absolute URI with one of the schemes {list(URI_SCHEMES)}"
                         + (f" (got {scheme}:)" if scheme else ""))
    rest = uri.split(":", 1)[1]
    if scheme in ("http", "https") and not re.match(r"//[^/?#]+", rest):
        raise ValueError(f"a {scheme}: URI must name a host ({scheme}://host/...)")
    if not rest:
        raise ValueError(f"must have something after {scheme}:")
    return uri


def linkable(uri: object) -> bool:
    """Whether a page may render this stored uri as a link (else it is shown as text)."""
    if not isinstance(uri, str):
        return False
    try:
        check_uri(uri)
    except ValueError:
        return False
    return scheme_of(uri.strip()) in LINK_SCHEMES


Uri = Annotated[
    str, BeforeValidator(check_uri),
    WithJsonSchema({"type": "string", "format": "uri", "maxLength": URI_MAX, "examples": ["https://example.com/runbook"],
                    "description": f"an absolute URI; schemes: {', '.join(URI_SCHEMES)}"}),
]
"""A source's uri: one of URI_SCHEMES, no whitespace or control characters."""
