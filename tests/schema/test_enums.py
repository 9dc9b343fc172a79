"""Each value set (memory kinds, cardinalities, decisions, outcomes, search paths, hit kinds, crypto modes, …) is
declared once, in schema/, and imported everywhere else: no second Literal[...] or tuple of the same strings."""

from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schema"
ELSEWHERE = [ROOT / name for name in ("services", "api", "credo", "graph")]


def declared() -> dict[frozenset[str], str]:
    """Every value set a schema module declares as a module-level Literal alias: its values -> its name."""
    found: dict[frozenset[str], str] = {}
    for path in sorted(SCHEMA.glob("*.py")):
        module = importlib.import_module(f"credo.schema.{path.stem}")
        for name, value in vars(module).items():
            if typing.get_origin(value) is typing.Literal and len(typing.get_args(value)) > 1:
                found.setdefault(frozenset(typing.get_args(value)), name)
    return found


def string_sets(path: Path) -> list[tuple[int, frozenset[str]]]:
    """Each literal collection of two or more strings in a file (Literal[...], tuple, list, set), with its line."""
    found, inside = [], set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        items = None
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", getattr(node.value, "attr", "")) == "Literal":
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            inside.add(id(node.slice))
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and id(node) not in inside:
            items = node.elts
        if items and len(items) > 1 and all(isinstance(i, ast.Constant) and isinstance(i.value, str) for i in items):
            found.append((node.lineno, frozenset(i.value for i in items)))
    return found


def redeclared(roots: list[Path], sets: dict[frozenset[str], str]) -> list[str]:
    """Where a file under `roots` spells out a value set schema/ declares."""
    return [f"{path.relative_to(root.parent)}:{line} repeats {sets[values]}"
            for root in roots for path in sorted(root.rglob("*.py"))
            for line, values in string_sets(path) if values in sets]


def test_no_value_set_declared_in_schema_is_spelled_out_again_elsewhere():
    assert redeclared(ELSEWHERE, declared()) == []


def test_schema_declares_each_value_set_once():
    seen: dict[frozenset[str], list[str]] = {}
    for path in sorted(SCHEMA.glob("*.py")):
        for line, values in string_sets(path):
            if len(values) > 1:
                seen.setdefault(values, []).append(f"{path.name}:{line}")
    sets = declared()
    assert {sets[v]: where for v, where in seen.items() if v in sets and len(where) > 1} == {}


def test_a_repeated_value_set_is_found(tmp_path):
    (tmp_path / "m.py").write_text('CARD = ("single", "multi")\n', encoding="utf-8")
    assert redeclared([tmp_path], {frozenset({"single", "multi"}): "schema/facts.py:Cardinality"}) != []
