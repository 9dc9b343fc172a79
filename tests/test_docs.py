"""The newcomer's map (docs/architecture.md) stays true: every path it names exists, and every function it names
beside a path is defined there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAP = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PATH = re.compile(r"`((?:api|credo|cypher|graph|ops|schema|services|tests|docs)/[\w/.*-]*?)`")
NAMED = re.compile(r"`((?:api|credo|graph|schema|services)/[\w/]+\.py)` `(\w+)`")


@pytest.mark.parametrize("path", sorted(set(PATH.findall(MAP))))
def test_every_path_the_map_names_exists(path):
    if "*" in path:
        assert list(ROOT.glob(path)), f"docs/architecture.md names {path}: nothing matches"
    else:
        assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which does not exist"


@pytest.mark.parametrize("path,name", sorted(set(NAMED.findall(MAP))))
def test_every_function_the_map_names_is_defined_where_it_says(path, name):
    source = (ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^\s*(def|class) {name}\b|^{name}\s*[:=]", source, re.MULTILINE), f"{path} defines no {name}"
