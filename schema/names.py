"""Names and text as they enter the store: invisible characters dropped, predicates normalised, sizes bounded.

Limits (documented in the README): a name (subject, predicate, entity object, scope key or value, sensitivity, role,
author, actor, session id, task) is at most NAME_MAX characters; a text literal object at most LITERAL_MAX (it is
indexed with its predicate, and Neo4j's range index keys hold about 8 KB); a statement, quote, reason, note, message
or summary text at most TEXT_MAX characters; an id at most ID_MAX, a URI at most URI_MAX; a scope at most SCOPE_MAX
pairs. Text must be valid Unicode: a lone surrogate (U+D800..U+DFFF, e.g. from JSON's "\\ud800") cannot be encoded
as UTF-8, so neither Neo4j nor an answer could carry it.
"""

from __future__ import annotations

import re
import unicodedata

from credo.schema.errors import InvalidInput

NAME_MAX = 512
LITERAL_MAX = 1024
TEXT_MAX = 16 * 1024
ID_MAX = 200
URI_MAX = 2048
SCOPE_MAX = 64
UNENCODABLE = "must be valid Unicode text (a lone surrogate such as \\ud800 cannot be stored)"

_SEPARATORS = re.compile(r"[\s\-_]+")
_NAME_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL and C1: no name holds one (a NUL, an escape, a newline)
_TEXT_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # free text keeps tab, line feed, return
NAME_CONTROL = "must not hold a control character (U+0000..U+001F, U+007F..U+009F: a NUL, an escape, a line break)"
TEXT_CONTROL = ("must not hold a control character other than tab and line breaks (U+0000..U+0008, U+000B, U+000C, "
                "U+000E..U+001F, U+007F..U+009F)")


def name_controls(value: object) -> object:
    """A name or id as given; ValueError (NAME_CONTROL) when it holds a control character."""
    if isinstance(value, str) and _NAME_CONTROLS.search(value):
        raise ValueError(NAME_CONTROL)
    return value


def text_controls(value: object) -> object:
    """Free text as given; ValueError (TEXT_CONTROL) when it holds a control character other than tab or a line
    break."""
    if isinstance(value, str) and _TEXT_CONTROLS.search(value):
        raise ValueError(TEXT_CONTROL)
    return value


def encodable(text: str) -> bool:
    """Whether text can be stored and sent (UTF-8 encodes it: no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def visible(text: str) -> str:
    """NFKC text without invisible format characters (Unicode category Cf: U+200B, U+2060, U+FEFF, ...)."""
    if text.isascii():  # ASCII is NFKC already and holds no Cf character (the per-character walk cost ingest 12 %)
        return text
    return "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf")


def normalise_predicate(name: object, field: str = "predicate") -> str:
    """The one spelling of a predicate: `owned_by`, `Owned_By`, `owned by` and `owned-by` are all `owned_by`."""
    if not isinstance(name, str):
        raise InvalidInput(field, f"must be text, got {type(name).__name__}")
    if len(name) > NAME_MAX:
        raise InvalidInput(field, f"must be at most {NAME_MAX} characters (got {len(name)})")
    if not encodable(name):
        raise InvalidInput(field, UNENCODABLE)
    if _NAME_CONTROLS.search(name):
        raise InvalidInput(field, NAME_CONTROL)
    norm = _SEPARATORS.sub("_", visible(name).casefold()).strip("_")
    if not norm:
        raise InvalidInput(field, "must not be empty (spaces, hyphens, underscores and invisible characters "
                                  "do not count)")
    return norm


def clean_name(name: object, field: str) -> str:
    """A name as stored: visible characters only, trimmed, non-empty and at most NAME_MAX characters."""
    if not isinstance(name, str):
        raise InvalidInput(field, f"must be text, got {type(name).__name__}")
    if len(name) > NAME_MAX:
        raise InvalidInput(field, f"must be at most {NAME_MAX} characters (got {len(name)})")
    if not encodable(name):
        raise InvalidInput(field, UNENCODABLE)
    if _NAME_CONTROLS.search(name):
        raise InvalidInput(field, NAME_CONTROL)
    cleaned = visible(name).strip()
    if not cleaned:
        raise InvalidInput(field, "must not be empty")
    return cleaned


def clean_text(text: object, field: str, *, limit: int = TEXT_MAX) -> str:
    """Free text (statement, quote, reason): non-empty after trimming and at most `limit` characters."""
    if not isinstance(text, str):
        raise InvalidInput(field, f"must be text, got {'nothing' if text is None else type(text).__name__}")
    if len(text) > limit:
        raise InvalidInput(field, f"must be at most {limit} characters (got {len(text)})")
    if not encodable(text):
        raise InvalidInput(field, UNENCODABLE)
    if _TEXT_CONTROLS.search(text):
        raise InvalidInput(field, TEXT_CONTROL)
    if not text.strip():
        raise InvalidInput(field, "must not be empty")
    return text.strip()


def check_ref(ref: object, field: str = "fact_id") -> str:
    """A fact or version id as a caller passes it: non-empty text (whether it exists is the repository's answer)."""
    if not isinstance(ref, str) or not ref.strip():
        got = "nothing" if ref is None else type(ref).__name__ if not isinstance(ref, str) else "empty text"
        raise InvalidInput(field, f"must be a fact id (f_...) or a version id (v_...), got {got}")
    if len(ref) > NAME_MAX:
        raise InvalidInput(field, f"must be at most {NAME_MAX} characters (got {len(ref)})")
    if not encodable(ref):
        raise InvalidInput(field, UNENCODABLE)
    return ref.strip()


def check_scope(scope: object, field: str = "scope") -> dict[str, str]:
    """A scope as a mapping of text to text (e.g. {"env": "production"}); None is the empty scope."""
    if scope is None:
        return {}
    if not isinstance(scope, dict):
        raise InvalidInput(field, f"must be a mapping of text to text like {{'env': 'production'}}, "
                                  f"got {type(scope).__name__}")
    if len(scope) > SCOPE_MAX:
        raise InvalidInput(field, f"must hold at most {SCOPE_MAX} pairs (got {len(scope)})")
    for key, value in scope.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise InvalidInput(field, f"keys and values must be text, got {key!r}: {value!r}")
        if len(key) > NAME_MAX or len(value) > NAME_MAX:
            raise InvalidInput(field, f"keys and values must be at most {NAME_MAX} characters")
        if not key.strip():
            raise InvalidInput(field, "keys must not be empty")
        if not (encodable(key) and encodable(value)):
            raise InvalidInput(field, f"keys and values {UNENCODABLE}")
    return dict(scope)
