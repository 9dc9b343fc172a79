"""The soak (bench/soak.py, issue 28 item 4): a 36-second run on the test Neo4j, in its own tenant, so it cannot rot;
and its bound checker, which must fail on a series that grows."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import soak  # noqa: E402
from soak_report import MB, Limits, Window, check  # noqa: E402


def test_a_short_soak_reports_every_window_and_every_bound_with_no_error(neo4j_info, monkeypatch, tmp_path):
    # given the harness pointed at the test server (it makes its own tenant and key, and runs its own `credo serve`)
    for name, value in (("NEO4J_URI", neo4j_info.uri), ("NEO4J_USER", neo4j_info.user),
                        ("NEO4J_PASSWORD", neo4j_info.password), ("NEO4J_DATABASE", neo4j_info.database)):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "soak.md"
    # when it runs 36 s of mixed load in 12 s windows after a short warm-up
    windows, bounds, text = soak.soak(["--minutes", "0.6", "--window", "0.2", "--clients", "2", "--warmup", "5",
                                       "--out", str(out)])
    # then there are three windows, each with reads, writes and serve's RSS (and Neo4j's, where its process is
    # visible from here: not in a container)
    visible = soak.neo4j_budget_mb(soak._listening_pid(neo4j_info.uri)) is not None
    assert len(windows) == 3
    for w in windows:
        assert w.reads and w.writes, w
        assert w.serve_mb and w.serve_mb > 50, w
        assert not visible or (w.neo4j_mb and w.neo4j_mb > 100), w
    # and every kind of call was made through HTTP, none failed
    ops = sum((w.ops for w in windows), Counter())
    assert {"add_fact", "succeed_fact", "ingest_messages", "remember", "consent", "search", "context", "facts",
            "why"} <= set(ops), ops
    assert not any("(error)" in name for name in ops), ops
    # and every bound was computed (the Neo4j one from the test server's own configuration), errors held at 0
    assert [b.name for b in bounds] == ["serve RSS", "Neo4j RSS", "read p50", "read p99", "write p50", "write p99",
                                        "errors"]
    assert all(b.held is not None for b in bounds if b.name != "Neo4j RSS" or visible), bounds
    assert bounds[-1].held and bounds[-1].measured == "0"
    # and the table printed is the one written, a row per window and per bound
    written = out.read_text()
    assert written == text
    rows = [line for line in written.splitlines() if line.startswith("| ") and " min |" in line]
    assert len(rows) == 3 and all(line.count("|") == 9 for line in rows)
    assert all(f"| {b.name} |" in written for b in bounds)


def _window(i: int, *, serve_mb: float, neo4j_mb: float, read_ms: float, write_ms: float, errors: int = 0) -> Window:
    w = Window(i, i * 300.0, (i + 1) * 300.0, errors=errors)
    w.reads = [read_ms * (1 + k / 100) for k in range(100)]
    w.writes = [write_ms * (1 + k / 100) for k in range(100)]
    w.serve_rss, w.neo4j_rss = [int(serve_mb * MB)], [int(neo4j_mb * MB)]
    return w


def test_the_bound_checker_holds_on_a_flat_series_despite_one_noisy_window():
    windows = [_window(i, serve_mb=400 + i, neo4j_mb=900, read_ms=40, write_ms=130) for i in range(6)]
    windows[4] = _window(4, serve_mb=404, neo4j_mb=900, read_ms=400, write_ms=1300)  # a neighbour's burst
    bounds = check(windows, Limits(neo4j_budget_mb=2304))
    assert [b.verdict for b in bounds] == ["ok"] * 7, bounds


def test_the_bound_checker_names_each_bound_a_growing_series_breaks():
    # serve's RSS climbs 60 MB a window, Neo4j's past its budget, latency doubles every window, one error
    windows = [_window(i, serve_mb=400 + 60 * i, neo4j_mb=900 + 400 * i, read_ms=40 * 2 ** i, write_ms=130 * 2 ** i,
                       errors=int(i == 3)) for i in range(6)]
    bounds = {b.name: b for b in check(windows, Limits(neo4j_budget_mb=2304))}
    assert {name for name, b in bounds.items() if b.held is False} == {
        "serve RSS", "Neo4j RSS", "read p50", "read p99", "write p50", "write p99", "errors"}
    assert "700 MB" in bounds["serve RSS"].measured and "550 MB" in bounds["serve RSS"].limit


def test_the_bound_checker_leaves_unknown_what_one_window_or_an_unseen_server_cannot_show():
    bounds = check([_window(0, serve_mb=400, neo4j_mb=900, read_ms=40, write_ms=130)], Limits(neo4j_budget_mb=None))
    assert {b.name: b.held for b in bounds} == {"serve RSS": True, "Neo4j RSS": None, "read p50": None,
                                                "read p99": None, "write p50": None, "write p99": None, "errors": True}


def test_main_exits_non_zero_naming_the_broken_bound(monkeypatch, capsys):
    windows = [_window(i, serve_mb=400 + 100 * i, neo4j_mb=900, read_ms=40, write_ms=130) for i in range(3)]
    monkeypatch.setattr(soak, "soak", lambda argv: (windows, check(windows, Limits(neo4j_budget_mb=2304)), ""))
    assert soak.main([]) == 1
    assert "BOUND BROKEN: serve RSS" in capsys.readouterr().err
