"""The pinned manifest is the class path the running server was started from: every cached jar of the pinned
release is listed with its SHA-1, and nothing the manifest lists is missing (so a machine without Maven fetches
exactly what a Maven resolution gives)."""

from __future__ import annotations

import hashlib

import pytest

from credo.ops.provision_dist import MARKER, _jar_url
from credo.ops.provision_manifest import PINNED_JARS, PINNED_VERSION
from credo.settings import Settings


def test_the_pinned_manifest_matches_the_cached_release_jar_for_jar():
    lib = Settings().cache_dir / "neo4j" / PINNED_VERSION / "lib"
    if not (lib.parent / MARKER).is_file():
        pytest.skip(f"Neo4j {PINNED_VERSION} is not cached on this machine (the suite's server fetches it)")
    expected = {_jar_url(coordinate)[1]: sha1 for coordinate, sha1 in PINNED_JARS}
    cached = {jar.name: hashlib.sha1(jar.read_bytes()).hexdigest() for jar in lib.glob("*.jar")}

    assert len(expected) == len(PINNED_JARS) == 225
    assert cached == expected
    assert f"neo4j-{PINNED_VERSION}.jar" in cached
