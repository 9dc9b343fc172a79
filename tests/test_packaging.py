"""The wheel installs everything under `credo` and ships the Cypher files as package data."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOREIGN = ("graph", "schema", "services", "api", "cypher")


def test_wheel_puts_only_credo_at_the_top_and_ships_cypher_files(tmp_path):
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v", "-w",
                            str(tmp_path), str(ROOT)], check=True, capture_output=True, text=True, timeout=300)
    # the build backend's warnings reach the output only with -v; a fresh install must print none of them
    assert "deprecated" not in (build.stdout + build.stderr).lower(), build.stdout + build.stderr
    [wheel] = tmp_path.glob("credo-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    [metadata] = [n for n in names if n.endswith(".dist-info/METADATA")]
    assert "License-Expression: Apache-2.0" in zipfile.ZipFile(wheel).read(metadata).decode()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"credo"}
    assert "credo/cypher/core/read_facts_by_subject.cypher" in names
    assert "credo/cypher/schema/0001_initial.cypher" in names
    assert "credo/api/inspector/templates/base.html" in names
    assert "credo/api/inspector/static/search.js" in names and "credo/api/inspector/static/inspector.css" in names
    assert "credo/cypher/schema/0016_ui_sessions.cypher" in names

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    probe = (
        "import sys; sys.path.insert(0, %r)\n"
        "import credo, credo.graph, credo.schema, credo.services, credo.api\n"
        "from credo import cypher\n"
        "assert credo.__file__.startswith(%r), credo.__file__\n"
        "assert cypher.load('read_version').text.startswith('//')\n"
        "assert cypher.migrations()[0][0] == 1\n"
        "import importlib.util\n"
        "for name in %r:\n"
        "    spec = importlib.util.find_spec(name)\n"
        "    assert spec is None or not (spec.origin or '').startswith(%r), (name, spec.origin)\n"
        "print('ok')\n"
    ) % (str(target), str(target), FOREIGN, str(target))
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
