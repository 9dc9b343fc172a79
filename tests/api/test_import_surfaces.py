"""The bulk import on REST, credo.Client and the CLI: the same report (committed batches, the first bad row and its
field), the tenant from the key, progress per batch (on stderr for the CLI)."""

from __future__ import annotations

import json
import subprocess

from credo.client import Client
from tests.api.conftest import new_tenant
from tests.api.cli.test_cli import run

ROWS = [{"subject": f"Person {i}", "predicate": "lives_in", "object": f"City {i}", "valid_from": "2020-01-01"}
        for i in range(5)]
BAD = ROWS[:3] + [{"predicate": "lives_in", "object": "Nowhere"}] + ROWS[3:]  # row 3 has no subject


def test_an_import_over_rest_answers_its_report_and_another_tenant_sees_nothing(api, tenant_a, tenant_b):
    # given five rows, imported over REST by tenant A in batches of 2
    answered = api.post("/v1/facts/import", headers=tenant_a.headers, json={"rows": ROWS, "batch_size": 2})
    # then the report lists three committed batches, and only tenant A holds the facts
    assert answered.status_code == 200, answered.text
    report = answered.json()["result"]
    assert report["committed"] == [0, 1, 2] and report["rows"] == 5 and report["error"] is None
    assert len(api.get("/v1/facts", headers=tenant_a.headers, params={"subject": "Person 4"}).json()["items"]) == 1
    assert api.get("/v1/facts", headers=tenant_b.headers, params={"subject": "Person 4"}).json()["items"] == []
    # and a bad row answers the report naming it (batches before it committed), a bad batch size a 422
    failed = api.post("/v1/facts/import", headers=tenant_b.headers, json={"rows": BAD, "batch_size": 2}).json()
    assert failed["result"]["committed"] == [0]
    assert (failed["result"]["error"]["row"], failed["result"]["error"]["field"]) == (3, "subject")
    bad = api.post("/v1/facts/import", headers=tenant_b.headers, json={"rows": ROWS, "batch_size": 0})
    assert bad.status_code == 422 and bad.json()["field"] == "batch_size"


def test_the_client_imports_and_tells_progress_per_committed_batch(live_server, neo4j_db):
    # given a client of a fresh tenant
    told = []
    with Client(live_server.url, new_tenant(neo4j_db).key) as client:
        # when it imports rows with a bad row 3 in batches of 2
        report = client.import_facts(BAD, batch_size=2, progress=told.append)
        # then the report is the Store's, and progress was told of the one committed batch
        assert report.committed == [0] and (report.error.row, report.error.field) == (3, "subject")
        assert [b.batch for b in told] == [0]
        # (one batch: one known time and one valid time, so the listing orders the two by their random version ids)
        assert sorted(f.subject for f in client.facts(predicate="lives_in")) == ["Person 0", "Person 1"]


def test_credo_import_reads_json_lines_and_prints_progress_on_stderr(cli_env, tmp_path):
    # given a JSON Lines file of five rows and a bad sixth line
    path = tmp_path / "facts.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\nnot json\n", encoding="utf-8")
    # when it is imported in batches of 2
    result: subprocess.CompletedProcess = run(["import", str(path), "--batch-size", "2"], cli_env, timeout=300)
    # then each committed batch was reported on stderr, the summary names the bad row, and it exits 1
    assert result.returncode == 1, result.stdout + result.stderr
    assert [line.split(":")[0] for line in result.stderr.splitlines() if line.startswith("batch ")] == [
        "batch 0", "batch 1"]
    assert "imported 4 rows" in result.stdout and "row 5" in result.stdout, result.stdout
    listed = run(["facts", "--json"], cli_env)
    assert listed.returncode == 0 and "Person 3" in listed.stdout and "Person 4" not in listed.stdout
