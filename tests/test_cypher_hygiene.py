"""Every Cypher file declares exactly the parameters it uses, has a header, and is bound to a constant."""

from __future__ import annotations

import importlib
import pkgutil
import re
from importlib import resources

import pytest

from credo import cypher
from credo.cypher import LOADED, strip_comments, used_parameters


def _import_everything() -> None:
    for package in ("credo.graph", "credo.services", "credo.api", "credo.ops"):
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}."):
            importlib.import_module(info.name)


_import_everything()
NAMES = cypher.all_query_names()


def test_every_query_file_is_bound_to_a_constant_at_import():
    unbound = sorted(set(NAMES) - set(LOADED))
    assert not unbound, f"cypher files never loaded by any module: {unbound}"


@pytest.mark.parametrize("name", NAMES)
def test_query_file_declares_exactly_the_parameters_it_uses(name):
    query = LOADED.get(name) or cypher.load(name)
    assert query.text.lstrip().startswith("//"), f"{name}: must open with a // comment saying what it does"
    assert "// returns:" in query.text, f"{name}: header must say what it returns"
    used = used_parameters(query.text)
    assert query.declared == used, f"{name}: declared {sorted(query.declared)} but uses {sorted(used)}"


@pytest.mark.parametrize("name", NAMES)
def test_query_file_is_named_verb_noun(name):
    verb, _, noun = name.partition("_")
    assert verb and noun, f"{name}: expected <verb>_<noun>.cypher"


def test_migrations_are_numbered_without_gaps():
    versions = [v for v, _, _ in cypher.migrations()]
    assert versions == list(range(1, len(versions) + 1))


_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE)\b")
_CONTENT = re.compile(r":(Fact|Summary|Entity|Source|AuditEvent)\b")
_VISIBILITY = re.compile(r"@visible(_summary|_entity|_source)?\(")
_USES = re.compile(r"@(\w+)\(")


def _applies_clearance(text: str) -> bool:
    """Whether the text applies a clearance fragment, itself or through a fragment that does (`@as_of`)."""
    body = strip_comments(text)
    return _VISIBILITY.search(body) is not None or any(
        _applies_clearance(cypher.fragment(name)) for name in set(_USES.findall(body)) if name != "visible")


@pytest.mark.parametrize("name", NAMES)
def test_a_read_of_facts_summaries_entities_sources_or_the_ledger_applies_the_clearance_rule_or_says_why_not(name):
    # the one clearance rule is cypher/fragments/visible.cypher (and its summary, entity and source forms), its
    # $levels supplied by Tx.rows from the caller's clearance; a read that must see everything (the ledger: its
    # reader is cleared for all, services/ledger/audit.py) says why in its header
    query = LOADED.get(name) or cypher.load(name)
    raw = cypher.source(name)
    body = strip_comments(query.text)
    if _WRITES.search(body) or not _CONTENT.search(body):
        return
    applies = _applies_clearance(raw)
    says_why = re.search(r"^//\s*clearance:\s*not applied:\s*\S", raw, re.MULTILINE) is not None
    assert applies or says_why, f"{name}: apply @visible(...) or say '// clearance: not applied: <why>' in the header"
    assert not (applies and says_why), f"{name}: applies the clearance rule, yet says it does not"


_BLOCK = 4  # lines
_COPIES = 3  # query files


def _query_lines(name: str) -> list[str]:
    return [line.strip() for line in strip_comments(cypher.source(name)).splitlines() if line.strip()]


def repeated_blocks(texts: dict[str, list[str]], block: int = _BLOCK, copies: int = _COPIES) -> dict[tuple, set]:
    """Every run of `block` identical lines found in `copies` or more of the named texts."""
    found: dict[tuple, set] = {}
    for name, lines in texts.items():
        for i in range(len(lines) - block + 1):
            found.setdefault(tuple(lines[i:i + block]), set()).add(name)
    return {run: names for run, names in found.items() if len(names) >= copies}


def test_no_block_of_four_lines_is_copied_into_three_query_files():
    # a rule read by many queries (the as-of projection and window, a write's flags) is a fragment of
    # cypher/fragments/, written once (`@fact_at(f, known_at)`, `@as_of(f, known_at, valid_at)`): copies drift apart
    repeated = repeated_blocks({name: _query_lines(name) for name in NAMES})
    assert not repeated, "copied blocks (make a fragment): " + "; ".join(
        f"{sorted(names)}: {' / '.join(run)}" for run, names in repeated.items())


def test_a_copied_block_is_found():
    block = ["MATCH (f:Fact)", "WHERE f.tenant = $tenant", "AND f.known_to IS NULL", "RETURN f"]
    assert repeated_blocks({"a": block, "b": ["WITH 1 AS x"] + block, "c": block + ["LIMIT 1"]})
    assert not repeated_blocks({"a": block, "b": block, "c": block[:3]})


# Every statement that creates a relationship of each type, and why a type has a second one: a rule about an edge
# (what it carries, when it is known from) lives with its writer, so two writers for one purpose drift apart.
WRITERS = {
    "ABOUT": {"core/create_fact_versions": "a version names its entities when it is created"},
    "ACCEPTED_IN": {"gate/link_accepted_in": "acceptance draws it",
                    "core/carry_version_edges": "carries it to a version that replaces its claim"},
    "CONFLICTS_WITH": {"facts/create_conflicts": "the conflict rule opens it",
                       "core/carry_version_edges": "carries an open dispute to a replacing version"},
    "DEPENDS_ON": {"truth/create_dependencies": "premises are drawn (the gate's and the cascade's)",
                   "fragments/carry_premises": "carries them to a replacing version (with or without evidence)"},
    "DERIVED_FROM": {"gate/create_episode": "an episode's trace to its messages",
                     "truth/create_summary_versions": "a summary's trace to its inputs"},
    "FLAGGED": {"fragments/flag_version": "every write that flags versions",
                "ops/merge_state_successors": "migration 0007 turned state-only versions into flags"},
    "FOR_TASK": {"recall/create_read_receipt": "a receipt names its task"},
    "MERGED_INTO": {"facts/merge_entity": "an entity merge"},
    "SERVED": {"recall/create_read_receipt": "a receipt names what it served"},
    "SOURCED_FROM": {"gate/link_sourced_from": "the write gate draws it",
                     "core/carry_version_edges": "carries it to a version that replaces its claim"},
    "SUPERSEDES": {"core/link_supersedes": "a correction or a state change"},
    "VERIFIED_BY": {"verify/create_verification": "a verifier's verdict on a version"},
    "REVIEWS": {"verify/create_review_item": "a version queued for a person's review"},
}
# a relationship type computed in the statement (never from input) copies edges as they are
DYNAMIC_WRITERS = {"ops/merge_state_successors"}
_WRITE_CLAUSE = re.compile(r"\b(CREATE|MERGE)\b")


def relationship_writers() -> tuple[dict[str, set[str]], set[str]]:
    """Per relationship type, the query files and fragments (`<folder>/<name>`) whose CREATE or MERGE draws it; and
    the files that draw a type computed in the statement."""
    found: dict[str, set[str]] = {}
    dynamic: set[str] = set()
    root = resources.files(cypher)
    for folder in root.iterdir():
        if not folder.is_dir() or folder.name in ("schema", "__pycache__"):
            continue
        for entry in folder.iterdir():
            if not entry.name.endswith(".cypher"):
                continue
            where = f"{folder.name}/{entry.name.removesuffix('.cypher')}"
            for line in strip_comments(entry.read_text(encoding="utf-8")).splitlines():
                clause = _WRITE_CLAUSE.search(line)
                if clause is None or re.search(r"\bON\s+CREATE\s*$", line[:clause.end()]):
                    continue
                for kind in re.findall(r"\[\w*:(\w+)", line[clause.start():]):
                    found.setdefault(kind, set()).add(where)
                if re.search(r"\[\w*:\$\(", line[clause.start():]):
                    dynamic.add(where)
    return found, dynamic


def test_each_relationship_type_has_its_listed_writers_only():
    found, dynamic = relationship_writers()
    listed = {kind: set(writers) for kind, writers in WRITERS.items()}
    assert found == listed, ("a relationship type gained or lost a writer: list it in WRITERS with why it is not "
                             f"the type's first writer, or use that one (found {found})")
    assert dynamic == DYNAMIC_WRITERS


def test_depends_on_is_drawn_by_one_statement_and_carried_by_one_fragment():
    found, _ = relationship_writers()
    assert found["DEPENDS_ON"] == {"truth/create_dependencies", "fragments/carry_premises"}
