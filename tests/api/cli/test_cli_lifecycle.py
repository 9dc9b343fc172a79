"""`credo deprecate`, `quarantine`, `release` on a real Neo4j: the act, its state, and a refused move as one line."""

from __future__ import annotations

import json

from tests.api.cli.test_cli import run


def test_deprecate_then_a_refused_quarantine_through_the_cli(cli_env):
    added = json.loads(run(["fact", "add", "Team", "uses", "Jenkins", "--from", "2024-01-01", "--json"], cli_env).stdout)
    done = run(["deprecate", added["fact_id"], "--reason", "moved to Actions", "--actor", "ops", "--json"], cli_env)
    assert done.returncode == 0, done.stderr
    assert [f["state"] for f in json.loads(done.stdout)["facts"]] == ["deprecated"]
    refused = run(["quarantine", "--fact", added["fact_id"], "--reason", "odd", "--actor", "security"], cli_env)
    assert refused.returncode == 1 and "deprecated -> quarantined" in refused.stderr
    missing = run(["release", "--fact", added["fact_id"], "--reason", "x"], cli_env)
    assert missing.returncode != 0 and "--actor" in missing.stderr
