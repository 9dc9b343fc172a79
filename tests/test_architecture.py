"""The package's shape: no import cycle, capabilities meet only through `core`, adapters and declared entry points.

Every import counts, the ones inside functions too (an import hidden in a function is still a dependency, and the
cycles it hid were the ones that grew). A capability (`services/<capability>/`, `graph/<capability>/`) may import
from another only its `core`, the adapters, and the modules the other declares public in its `__init__.py`
(`PUBLIC = (...)`): docs/architecture.md says which capability owns what.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the source folders and the package each one is installed as (pyproject.toml's package-dir)
FOLDERS = {"credo": "credo", "services": "credo.services", "graph": "credo.graph", "api": "credo.api",
           "schema": "credo.schema", "cypher": "credo.cypher", "ops": "credo.ops"}
SHARED = {"core", "adapters"}  # what every capability may import


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package, *parts))
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = modules()


def imports_in(source: str) -> set[str]:
    """The package's modules a module's `source` imports, at any depth of its code (functions included)."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from package import module` imports the module; `from module import name`, the module
            names = [full if (full := f"{node.module}.{a.name}") in MODULES else node.module for a in node.names]
        for name in names:
            # the longest prefix that is one of the package's modules (`from pkg import module` names a module)
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name.startswith("credo"):
                out.add(name)
    return out


GRAPH = {name: imports_in(path.read_text(encoding="utf-8")) - {name} for name, path in MODULES.items()}


def _package_inits() -> set[str]:
    return {name for name, path in MODULES.items() if path.name == "__init__.py"}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def capability(module: str) -> tuple[str, str] | None:
    """(layer, capability) of a module inside a capability package, else None."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] in ("services", "graph") and f"credo.{parts[1]}.{parts[2]}" in _package_inits():
        return parts[1], parts[2]
    return None


def public(layer: str, name: str) -> frozenset[str]:
    """The modules a capability declares open to the others (its package's PUBLIC)."""
    package = importlib.import_module(f"credo.{layer}.{name}")
    return frozenset(getattr(package, "PUBLIC", ()))


def test_the_package_has_no_import_cycle_even_through_imports_inside_functions():
    # a package's __init__ importing its own modules is not a cycle a reader must untangle: edges into an
    # __init__ from its own modules are left out
    graph = {m: {t for t in ts if not (t in _package_inits() and m.startswith(t + "."))} for m, ts in GRAPH.items()}
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def crossings(graph: dict[str, set[str]], public=public) -> list[str]:
    """`module -> target` for each import from one capability into another that is neither shared nor public."""
    wrong = []
    for module, targets in sorted(graph.items()):
        mine = capability(module)
        if mine is None:
            continue
        for target in sorted(targets):
            theirs = capability(target)
            if theirs is None or theirs[1] == mine[1] or theirs[1] in SHARED:
                continue
            leaf = target.split(".")[3] if len(target.split(".")) > 3 else ""
            if leaf not in public(*theirs):
                wrong.append(f"{module} -> {target}")
    return wrong


def test_a_capability_imports_from_another_only_core_adapters_and_its_declared_entry_points():
    wrong = crossings(GRAPH)
    assert not wrong, "imports across capabilities past their entry points:\n" + "\n".join(wrong)


@pytest.mark.parametrize("layer", ["services", "graph"])
def test_every_declared_entry_point_exists(layer):
    for name in sorted({c for m in MODULES if (c := capability(m)) and c[0] == layer}):
        for leaf in public(*name):
            assert f"credo.{layer}.{name[1]}.{leaf}" in MODULES, f"{layer}/{name[1]}: PUBLIC names {leaf!r}, no module"


def test_the_checker_sees_imports_in_functions_and_finds_a_cycle_and_a_crossing():
    # the rules above can fail: hand-made inputs with a function-level import, a cycle and a crossing
    assert imports_in("def f():\n    from credo.services.core import context\n") == {"credo.services.core.context"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    graph = {"credo.services.recall.search": {"credo.services.truth.cascade", "credo.services.core.context",
                                               "credo.services.facts.read"}}
    assert crossings(graph, public=lambda layer, name: frozenset({"read"})) == [
        "credo.services.recall.search -> credo.services.truth.cascade"]
