"""Credo's Cypher, one query per file; `load` binds a file to a constant at import time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_PARAM = re.compile(r"(?<![\w$])\$([A-Za-z_][A-Za-z0-9_]*)")
_DECLARED = re.compile(r"^//\s*\$([A-Za-z_][A-Za-z0-9_]*)\b", re.MULTILINE)

LOADED: dict[str, "Query"] = {}


@dataclass(frozen=True)
class Query:
    """One Cypher file: its name, its text and the parameters its header declares."""

    name: str
    text: str
    declared: frozenset[str]

    def __str__(self) -> str:
        return self.text


def used_parameters(text: str) -> frozenset[str]:
    """Parameters the query body uses (comment lines excluded)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return frozenset(_PARAM.findall(body))


def load(name: str) -> Query:
    """Read `cypher/<name>.cypher` from the installed package; a missing file fails at import."""
    text = resources.files(__name__).joinpath(f"{name}.cypher").read_text(encoding="utf-8")
    query = Query(name=name, text=text, declared=frozenset(_DECLARED.findall(text)))
    LOADED[name] = query
    return query


def all_query_names() -> list[str]:
    """Every query file shipped in the package (schema migrations excluded)."""
    return sorted(
        entry.name.removesuffix(".cypher")
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".cypher")
    )


def migrations() -> list[tuple[int, str, str]]:
    """Schema migrations as (version, name, text), in version order."""
    found = []
    for entry in resources.files(__name__).joinpath("schema").iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.cypher", entry.name)
        if match:
            found.append((int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    return sorted(found)
