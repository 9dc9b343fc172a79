"""`credo audit`, `verify-ledger`, `utility` and `maintain --episodic-ttl-days` on a real Neo4j."""

from __future__ import annotations

import json

from tests.api.cli.test_cli import run


def test_an_operator_reads_and_verifies_the_ledger_from_the_command_line(cli_env):
    added = run(["fact", "add", "Acme account", "owned_by", "Alice", "--json"], cli_env)
    assert added.returncode == 0, added.stderr
    fact = json.loads(added.stdout)
    retracted = run(["fact", "retract", fact["fact_id"], "--reason", "wrong account"], cli_env)
    assert retracted.returncode == 0, retracted.stderr
    listed = run(["audit", "--id", fact["fact_id"]], cli_env)
    assert listed.returncode == 0, listed.stderr
    assert "add_facts" in listed.stdout and "retract_fact" in listed.stdout and "(wrong account)" in listed.stdout
    page = json.loads(run(["audit", "--limit", "1", "--json"], cli_env).stdout)
    assert len(page["items"]) == 1 and page["next_after"] == 1
    verified = run(["verify-ledger"], cli_env)
    assert verified.returncode == 0 and verified.stdout.startswith("ok: 2 chained events"), verified.stdout
    swept = run(["maintain", "--episodic-ttl-days", "14", "--json"], cli_env)
    assert swept.returncode == 0 and json.loads(swept.stdout)["tier_moves"] == []
    usage = run(["utility", fact["fact_id"]], cli_env)
    assert usage.returncode == 0 and "tier working" in usage.stdout, usage.stdout + usage.stderr
