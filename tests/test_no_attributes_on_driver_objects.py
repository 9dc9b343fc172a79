"""Nothing is hung on a driver object: what a write carries is a named field of the unit of work
(services/core/unit_of_work.py) or of `Tx.state` (graph/core/tx_state.py), never an attribute set, read or probed by
string name on a transaction, a session, a driver or a database handle.

The scan reads the source of services/, graph/, credo/ and api/ and fails on `setattr`, `getattr`, `hasattr` or
`delattr` whose object is such a handle (by its name: `tx`, `w.tx`, `session`, `ctx.db`, `self._driver`, ...), and
on any attribute named `credo_…` (the prefix the hung attributes used) but Starlette's `request.state`, whose purpose
is per-request values.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("services", "graph", "credo", "api")
HANDLES = {"tx", "_tx", "transaction", "session", "_session", "driver", "_driver", "db", "_db", "database"}
BY_NAME = {"setattr", "getattr", "hasattr", "delattr"}
# the driver's own attribute, read where the driver has it (pipelined BEGIN, bench/RESULTS.md "Issue 9 cascade
# targets, second pass"): read only, nothing of Credo's is kept on the session
READS_OF_THE_DRIVERS_OWN = {("graph/core/db.py", "session", "_pipelined_begin")}


def _last_name(node: ast.AST) -> str | None:
    """The last name of `a.b.c` (c), of `a` (a), else None."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _is_request_state(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "state" and _last_name(node.value) == "request"


def hung_attributes(source: str, path: str = "<source>") -> list[str]:
    """`path:line: what` for each attribute set, read or probed by name on a driver object, or named `credo_…`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BY_NAME and node.args:
            target = node.args[0]
            name = node.args[1] if len(node.args) > 1 else None
            literal = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
            handle = _last_name(target)
            if handle in HANDLES and (path, handle, literal) not in READS_OF_THE_DRIVERS_OWN:
                found.append((node.lineno, f"{node.func.id}({ast.unparse(target)}, {ast.unparse(name) if name else ''})"))
            elif literal is not None and literal.startswith("credo_") and not _is_request_state(target):
                found.append((node.lineno, f"{node.func.id}(…, {literal!r})"))
        elif isinstance(node, ast.Attribute) and node.attr.startswith("credo_") and not _is_request_state(node.value):
            found.append((node.lineno, f".{node.attr}"))
    return [f"{path}:{line}: {what}" for line, what in sorted(found)]


def test_no_attribute_is_set_read_or_probed_by_name_on_a_transaction_or_driver_object():
    found = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += hung_attributes(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "attributes hung on driver objects (use the unit of work's fields):\n" + "\n".join(found)


def test_the_scan_finds_what_the_write_path_used_to_hang_on_its_transaction():
    # the rule can fail: the shapes the unit of work replaced, each caught
    old = ('setattr(tx, "credo_vectors", plan)\n'
           'log = getattr(tx, "credo_changes", None)\n'
           'cipher.open_tree(self.credo_tenant, found)\n'
           'cached = getattr(ctx.db, "retention", None)\n'
           'setattr(w.tx, name, value)\n'
           'hasattr(session, "credo_x")\n')
    assert [line.split(": ", 1)[0] for line in hung_attributes(old)] == [f"<source>:{n}" for n in range(1, 7)]
    # and leaves alone what is not a driver object, or is Starlette's per-request state
    fine = ('getattr(query, "declared", ())\n'
            'known = getattr(request.state, "credo_principal", None)\n'
            'request.state.credo_principal = who\n'
            'tx.state.cipher = cipher\n')
    assert hung_attributes(fine) == []
