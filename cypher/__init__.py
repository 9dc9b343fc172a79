"""Credo's Cypher, one query per file; `load` binds a file to a constant at import time."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable

_PARAM = re.compile(r"(?<![\w$])\$([A-Za-z_][A-Za-z0-9_]*)")
_DECLARED = re.compile(r"^//\s*\$([A-Za-z_][A-Za-z0-9_]*)\b", re.MULTILINE)
# a header line "// returns: (plain values only ..." promises scalars, lists, maps and instants at every depth (no node,
# relationship or path), so `Tx.rows` takes its records as the driver hydrated them, without checking each value
_PLAIN = re.compile(r"^//\s*returns:\s*\(plain values only\b", re.MULTILINE)
# `@state_at(f, known_at)` / `@flag_at(f, known_at)`: a fragment of cypher/fragments/ applied to a version variable
# and a known point (a variable, a $parameter or null = believed now), so a rule read everywhere is written once; a
# fragment takes one to three operands (VERSION, POINT, VALID: `@fact_instants(f)`, `@as_of(f, known_at, valid_at)`)
_FRAGMENT = re.compile(r"@(\w+)\((\$?\w+)(?:,\s*(\$?\w+))?(?:,\s*(\$?\w+))?\)")
_OPERANDS = ("VERSION", "POINT", "VALID")

LOADED: dict[str, "Query"] = {}
_FILES: dict[str, Traversable] = {}


@dataclass(frozen=True)
class Query:
    """One Cypher file: its name, its text and the parameters its header declares."""

    name: str
    text: str
    declared: frozenset[str]
    plain: bool = False
    body: str = field(default="", compare=False)  # what is sent: the text without its comment lines

    def __post_init__(self) -> None:
        # the server lexes every byte of every call (the plan cache is keyed by the text): the header and the
        # comments are for readers of the file
        if not self.body:
            object.__setattr__(self, "body", strip_comments(self.text))

    def __str__(self) -> str:
        return self.text


def strip_comments(text: str) -> str:
    """The text without its whole-line `//` comments."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def used_parameters(text: str) -> frozenset[str]:
    """Parameters the query body uses (comment lines excluded)."""
    return frozenset(_PARAM.findall(strip_comments(text)))


def fragment(name: str) -> str:
    """The body of `cypher/fragments/<name>.cypher` (comment lines dropped); VERSION, POINT and VALID are its
    operands."""
    text = resources.files(__name__).joinpath("fragments", f"{name}.cypher").read_text(encoding="utf-8")
    return " ".join(line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("//"))


def expand(text: str) -> str:
    """Replace every `@fragment(version, point, valid)` by the fragment's text, its operands put in (static text only:
    identifiers of the file)."""
    return _FRAGMENT.sub(lambda m: expand(_apply(fragment(m.group(1)), m.groups()[1:])), text)


def _apply(body: str, operands: tuple[str | None, ...]) -> str:
    """The fragment's body with each operand given put in for its placeholder."""
    for placeholder, operand in zip(_OPERANDS, operands):
        if operand is not None:
            body = body.replace(placeholder, operand)
    return body


def _files() -> dict[str, Traversable]:
    """Every query file shipped in the package by name: `cypher/<capability>/<name>.cypher` (schema migrations and
    fragments apart); a name is unique across capabilities, so a query is loaded by its name alone."""
    if not _FILES:
        for folder in resources.files(__name__).iterdir():
            if not folder.is_dir() or folder.name in ("schema", "fragments", "__pycache__"):
                continue
            for entry in folder.iterdir():
                if entry.name.endswith(".cypher"):
                    name = entry.name.removesuffix(".cypher")
                    if name in _FILES:
                        raise RuntimeError(f"cypher/{folder.name}/{entry.name}: the name {name!r} is taken twice")
                    _FILES[name] = entry
    return _FILES


def source(name: str) -> str:
    """The text of the query file `name` as written (fragments not expanded)."""
    return _files()[name].read_text(encoding="utf-8")


def load(name: str) -> Query:
    """Read the query file `name` (in its capability's folder) from the installed package, fragments expanded; a
    missing file fails at import."""
    if name not in _files():
        raise FileNotFoundError(f"no cypher/<capability>/{name}.cypher in the package")
    text = expand(source(name))
    query = Query(name=name, text=text, declared=frozenset(_DECLARED.findall(text)), plain=bool(_PLAIN.search(text)))
    LOADED[name] = query
    return query


def all_query_names() -> list[str]:
    """Every query file shipped in the package (schema migrations and fragments excluded)."""
    return sorted(_files())


def migrations() -> list[tuple[int, str, str]]:
    """Schema migrations as (version, name, text), in version order."""
    found = []
    for entry in resources.files(__name__).joinpath("schema").iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.cypher", entry.name)
        if match:
            found.append((int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    return sorted(found)
