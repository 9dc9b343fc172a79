"""Ablation (issue 11 item 6): the cases of bench/ablation_cases.py in four configurations.

  full           every search path (lexical + vector + graph, fused), full governance
  lexical        only the full-text path, full governance
  vector         only the vector path, full governance
  no_governance  every path; writes skip the gate and the conflict rule (and dedup), search skips the served-state
                 and support filter (services/governance.NONE, internal: no public surface can do this)

Each configuration writes every case into a fresh tenant, then asks each case's question through `search` and
checks `expect` (in the top k) and `forbid` (in no hit of the top 10). Prints pass rates per category and
configuration, retrieval p50/p95 (the search call, query embedding included) and each configuration's failures.

Run on an instance of its own (stopped afterwards):
  env -u NEO4J_URI CREDO_INSTANCE=ablation CREDO_DATA_DIR=$(mktemp -d) .venv/bin/python bench/ablation.py
  env -u NEO4J_URI CREDO_INSTANCE=ablation CREDO_DATA_DIR=<same dir> .venv/bin/credo neo4j stop
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ablation_cases import CASES, CATEGORIES, Case  # noqa: E402

from credo.schema.commands import build  # noqa: E402
from credo.schema.commands_search import SearchQuery  # noqa: E402
from credo.schema.errors import CredoError  # noqa: E402
from credo.services.recall import search as search_service  # noqa: E402
from credo.services.core.governance import FULL, NONE, Governance  # noqa: E402


@dataclass(frozen=True)
class Config:
    """A configuration: which search paths answer, and what governance the store applies."""

    name: str
    paths: frozenset[str] | None
    governance: Governance


CONFIGS = (
    Config("full", None, FULL),
    Config("lexical", frozenset({"lexical"}), FULL),
    Config("vector", frozenset({"vector"}), FULL),
    Config("no_governance", None, NONE),
)


@dataclass
class Outcome:
    """One case's result in one configuration."""

    case: Case
    passed: bool
    why: str
    ms: float
    refused: list[str] = field(default_factory=list)


def _object(value: Any) -> Any:
    import credo

    return credo.text(value["text"]) if isinstance(value, dict) else value


def apply(store: Any, case: Case) -> list[str]:
    """Write one case's history; returns the refusals the store answered (part of the story, not errors)."""
    labels: dict[str, str] = {}
    refused: list[str] = []
    for op in case.setup:
        kind = op["op"]
        if kind == "add":
            fact = store.add_fact(op["subject"], op["predicate"], _object(op["object"]), statement=op["statement"],
                                  valid_from=op.get("valid_from"),
                                  depends_on=[labels[d] for d in op.get("depends_on", [])] or None)
            if "label" in op:
                labels[op["label"]] = fact.fact_id
        elif kind == "succeed":
            store.succeed_fact(labels[op["ref"]], object=op["object"], at=op["at"], statement=op["statement"])
        elif kind == "retract":
            store.retract_fact(labels[op["ref"]], reason=op["reason"])
        elif kind == "end":
            store.end_fact(labels[op["ref"]], at=op["at"])
        elif kind == "say":
            store.ingest_messages(op["session"], [
                {"index": i, "origin": origin, "role": role, "author": author, "text": text,
                 "at": f"2025-02-01T09:{i:02d}:00+00:00"}
                for i, (origin, role, author, text) in enumerate(op["messages"])])
        elif kind == "remember":
            try:
                store.remember(op["session"], op["quote"], op["content"], subject=op["subject"],
                               predicate=op["predicate"])
            except CredoError as exc:
                refused.append(f"{type(exc).__name__}: {exc}")
        else:
            raise ValueError(f"unknown op {kind!r}")
    return refused


def ask(store: Any, case: Case, config: Config) -> tuple[bool, str, float]:
    """Ask the case's question; (passed, why not, milliseconds of the search call)."""
    cmd = build(SearchQuery, query=case.query, limit=10)
    start = time.perf_counter()
    result = search_service.search(store._ctx, cmd, paths=config.paths)
    ms = (time.perf_counter() - start) * 1000
    texts = [h.text or "" for h in result.hits]
    if case.expect and not any(case.expect.lower() in t.lower() for t in texts[:case.k]):
        return False, f"missing {case.expect!r} in top {case.k}: {texts[:3]}", ms
    if case.forbid and any(case.forbid.lower() in t.lower() for t in texts):
        return False, f"served {case.forbid!r}", ms
    return True, "", ms


def run_config(db: Any, embedder: Any, config: Config, cases: list[Case]) -> list[Outcome]:
    """Write every case into a fresh tenant under `config`, then ask every question."""
    from credo import Store

    store = Store(db, tenant=f"ablation_{config.name}_{uuid.uuid4().hex[:8]}", embedder=embedder, _owns_db=False)
    store._ctx.governance = config.governance
    refusals = {c.name: apply(store, c) for c in cases}
    search_service.search(store._ctx, build(SearchQuery, query="warm up", limit=10), paths=config.paths)
    outcomes = []
    for c in cases:
        passed, why, ms = ask(store, c, config)
        outcomes.append(Outcome(c, passed, why, ms, refusals[c.name]))
    return outcomes


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def table(results: dict[str, list[Outcome]]) -> str:
    """The markdown table: pass rate per category and configuration, then retrieval p50/p95."""
    names = list(results)
    lines = ["| category | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for cat in CATEGORIES:
        cells = []
        for n in names:
            got = [o for o in results[n] if o.case.category == cat]
            cells.append(f"{sum(o.passed for o in got)}/{len(got)}")
        lines.append(f"| {cat} | " + " | ".join(cells) + " |")
    cells = [f"{sum(o.passed for o in results[n])}/{len(results[n])}" for n in names]
    lines.append("| **all** | " + " | ".join(cells) + " |")
    lines.append("| search p50 / p95 (ms) | " + " | ".join(
        f"{statistics.median([o.ms for o in results[n]]):.1f} / {percentile([o.ms for o in results[n]], 0.95):.1f}"
        for n in names) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default=",".join(c.name for c in CONFIGS))
    args = parser.parse_args()
    import credo
    from credo.services.adapters.embeddings import default_embedder

    embedder = default_embedder()
    handle = credo.connect(tenant="ablation", embedder=embedder, progress=lambda m: print(m, file=sys.stderr))
    db = handle._ctx.db
    results = {}
    for config in CONFIGS:
        if config.name in args.configs.split(","):
            started = time.perf_counter()
            results[config.name] = run_config(db, embedder, config, list(CASES))
            print(f"{config.name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print(f"{len(CASES)} cases\n")
    print(table(results))
    for name, outcomes in results.items():
        failed = [o for o in outcomes if not o.passed]
        print(f"\n{name}: {len(failed)} failed")
        for o in failed:
            print(f"  {o.case.name}: {o.why}")
    handle.close()


if __name__ == "__main__":
    main()
