"""`credo facts` and `credo who` list undated facts under their own heading, and `--json` carries the mark."""

from __future__ import annotations

import json
import subprocess
import sys

CREDO = [sys.executable, "-m", "credo"]
HEADING = "undated — may hold at this point, since unknown"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(CREDO + args, env=env, capture_output=True, text=True, timeout=120)


def test_facts_lists_undated_facts_under_their_own_heading(cli_env):
    # given a dated owner and an undated schema version of the same service
    assert run(["fact", "add", "orders-db", "owned_by", "Ann", "--from", "2024-01-01"], cli_env).returncode == 0
    assert run(["fact", "add", "orders-db", "schema_version", "v7", "--text"], cli_env).returncode == 0
    # when its facts are listed
    out = run(["facts", "orders-db"], cli_env)
    assert out.returncode == 0, out.stderr
    # then the dated answer comes first and v7 follows under the undated heading
    dated, sep, undated = out.stdout.partition(HEADING)
    assert sep and "Ann" in dated and "v7" not in dated and "v7" in undated and "Ann" not in undated
    # and the JSON marks each fact
    listed = json.loads(run(["facts", "orders-db", "--json"], cli_env).stdout)
    assert [(f["object_name"], f["undated"]) for f in listed] == [("Ann", False), ("v7", True)]
    # and --no-undated leaves the undated part out
    assert "v7" not in run(["facts", "orders-db", "--no-undated"], cli_env).stdout


def test_facts_with_only_undated_facts_says_the_dated_answer_is_empty(cli_env):
    assert run(["fact", "add", "orders-db", "schema_version", "v7", "--text"], cli_env).returncode == 0
    out = run(["facts", "orders-db"], cli_env).stdout
    dated, sep, undated = out.partition(HEADING)
    assert "(nothing dated)" in dated and sep and "v7" in undated


def test_who_lists_undated_relations_under_their_own_heading(cli_env):
    # given Ann's dated team and her undated manager
    assert run(["fact", "add", "Ann", "member_of", "Platform", "--from", "2023-01-01"], cli_env).returncode == 0
    assert run(["fact", "add", "Ann", "reports_to", "Dee"], cli_env).returncode == 0
    # when her relations are listed
    out = run(["who", "Ann", "--at", "2024-01-01"], cli_env)
    assert out.returncode == 0, out.stderr
    dated, sep, undated = out.stdout.partition(HEADING)
    assert sep and "member_of: Platform" in dated and "Dee" not in dated and "reports_to: Dee" in undated
    # and the JSON marks each relation
    listed = json.loads(run(["who", "Ann", "--at", "2024-01-01", "--json"], cli_env).stdout)
    assert [(r["other"], r["undated"]) for r in listed] == [("Platform", False), ("Dee", True)]
