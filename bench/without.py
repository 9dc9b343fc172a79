"""Run a bench with one performance trick switched off, for the trick audit's on/off pairs (issue 26 item 6).

    .venv/bin/python bench/without.py TRICK bench/bench_cascade.py --sizes 10000 --direct --trials 3
    .venv/bin/python bench/without.py none bench/bench_cascade.py ...   # the same process set-up, trick on

Each switch patches the running process before the bench is imported; the product code is not edited:
- collector: writes do not pause the cyclic garbage collector (graph/core/collector.py)
- sessions: every read builds and closes its own session (no borrowed idle sessions, graph/core/db.py)
- sized: search parameters sent unpadded ('' / [''] still stand for none; graph/recall/search.py)
- listed: long list parameters repr in full for the driver's debug line (graph/core/vectors.py `Listed`)
- rust: the driver's pure-Python PackStream instead of neo4j-rust-ext
- lookups: the search's look-ups run before the embedding in the caller's thread (services/recall/search.py)
- import_thread: import_facts validates and embeds the next batch after writing this one (services/facts/imports.py)
"""

from __future__ import annotations

import runpy
import sys
from concurrent.futures import Future
from contextlib import nullcontext


class _Inline:
    """An executor that runs each task at submit, in the caller's thread."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def submit(self, fn, *args, **kwargs) -> Future:  # noqa: ANN001 - the executor's own signature
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller as the Future's error
            future.set_exception(exc)
        return future

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def shutdown(self, wait: bool = True) -> None:
        pass


def switch_off(trick: str) -> None:
    """Patch this process so `trick` does not run."""
    if trick == "rust":
        sys.modules["neo4j._rust"] = None  # type: ignore[assignment] - makes the driver's import fail: Python codec
        import neo4j._codec.packstream as packstream
        assert not packstream.RUST_AVAILABLE
        return
    if trick == "collector":
        import credo.graph.core.db as db
        db.paused = nullcontext
    elif trick == "sessions":
        import credo.graph.core.db as db
        db._IDLE_SESSIONS = 0
    elif trick == "sized":
        import credo.graph.recall.search as search
        search.sized_list = lambda values: list(values or ()) or [""]
        search.sized_text = lambda value: value or ""
    elif trick == "listed":
        import credo.graph.core.vectors as vectors
        vectors.Listed.__repr__ = list.__repr__  # type: ignore[method-assign]
    elif trick == "lookups":
        import credo.services.recall.search as search
        search._LOOKUPS = _Inline()
    elif trick == "import_thread":
        import credo.services.facts.imports as imports
        imports.ThreadPoolExecutor = _Inline
    elif trick != "none":
        raise SystemExit(f"unknown trick {trick!r}")


def main() -> None:
    trick, script, *args = sys.argv[1:]
    switch_off(trick)
    print(f"# without: {trick}", flush=True)
    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
