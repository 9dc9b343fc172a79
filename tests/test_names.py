"""Every name a module of the package reads is bound somewhere in it (an import, a definition, an assignment, a
parameter) or is a builtin: a name left behind by a move or a rename fails here, not as a NameError in production
on the one path no test reaches."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("api", "credo", "graph", "ops", "schema", "services")
MODULE_NAMES = {"__file__", "__name__", "__doc__", "__spec__", "__path__", "__package__", "__builtins__"}


def unbound(source: str) -> list[tuple[int, str]]:
    """(line, name) of every name read but bound nowhere in `source` (scopes are merged: a conservative check)."""
    tree = ast.parse(source)
    bound = set(dir(builtins)) | MODULE_NAMES
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
    return [(n.lineno, n.id) for n in ast.walk(tree)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound]


def test_every_name_a_module_reads_is_bound_in_it():
    found = [f"{path.relative_to(ROOT)}:{line}: {name}"
             for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for line, name in unbound(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_finds_a_name_bound_nowhere():
    source = "from x import RaceLost\n\ndef f(a):\n    raise ConflictError(a)\n"
    assert unbound(source) == [(4, "ConflictError")]
