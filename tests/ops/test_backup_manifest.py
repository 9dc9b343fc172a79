"""The restore's comparison of a loaded graph with its backup's manifest (pure: no server)."""

from __future__ import annotations

import copy

import pytest

from credo.ops.backup_manifest import DumpFile, LedgerHead, Manifest, Migration, differences

MANIFEST = Manifest(
    format=1, credo_version="0.1.0", neo4j_version="2026.08.1", database="neo4j", created_at="2026-12-04T00:00:00+00:00",
    migrations=[Migration(version=1, name="initial"), Migration(version=2, name="provenance")],
    node_counts={"Fact": 5, "AuditEvent": 7, "SchemaMigration": 2},
    tenants={"acme": LedgerHead(ledger_seq=7, ledger_head="a" * 64, events=7)},
    dump=DumpFile(file="neo4j.dump", bytes=10, sha256="0" * 64),
)
STATE = {
    "migrations": [{"version": 1, "name": "initial"}, {"version": 2, "name": "provenance"}],
    "node_counts": {"Fact": 5, "AuditEvent": 7, "SchemaMigration": 2},
    "tenants": {"acme": {"ledger_seq": 7, "ledger_head": "a" * 64, "events": 7}},
}


def _changed(path: tuple, value: object) -> dict:
    state = copy.deepcopy(STATE)
    target = state
    for key in path[:-1]:
        target = target[key]
    if value is None:
        target.pop(path[-1])
    else:
        target[path[-1]] = value
    return state


def test_a_graph_that_holds_what_the_manifest_says_shows_no_difference():
    assert differences(MANIFEST, STATE) == []


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        (("node_counts", "Fact"), 6, "node_counts.Fact: the graph has 6, the manifest 5"),
        (("node_counts", "Entity"), 1, "node_counts.Entity: the graph has 1, the manifest 0"),
        (("tenants", "acme", "ledger_head"), "b" * 64, "tenants.acme:"),
        (("tenants", "acme", "events"), 6, "tenants.acme:"),
        (("tenants", "acme"), None, "tenants.acme: the graph has no ledger"),
        (("tenants", "other"), {"ledger_seq": 1, "ledger_head": "c" * 64, "events": 1}, "tenants.other:"),
        (("migrations",), [{"version": 1, "name": "initial"}], "migrations: the graph has 1 migration(s) up to 1"),
    ],
    ids=["a-count-higher", "a-label-the-backup-lacks", "another-head", "an-event-missing", "a-tenant-missing",
         "a-tenant-extra", "a-migration-missing"],
)
def test_each_difference_is_named_by_its_field(path, value, named):
    found = differences(MANIFEST, _changed(path, value))
    assert len(found) == 1 and found[0].startswith(named), found
