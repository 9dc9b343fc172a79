"""The soak's arithmetic: one row per window (latency percentiles, operation counts, RSS), the bounds checked over the
rows, and the markdown table. Pure functions over plain values, so a made-up series tests them in microseconds."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

MB = 1024 * 1024


@dataclass
class Window:
    """What one window saw: latencies (ms) of reads and writes, counts per operation, errors, RSS samples (bytes)."""

    index: int
    start_s: float
    end_s: float
    reads: list[float] = field(default_factory=list)
    writes: list[float] = field(default_factory=list)
    ops: Counter = field(default_factory=Counter)
    errors: int = 0
    serve_rss: list[int] = field(default_factory=list)
    neo4j_rss: list[int] = field(default_factory=list)

    def p(self, kind: str, q: float) -> float | None:
        """The q-quantile (nearest rank) of the window's `reads` or `writes` latencies, None when there were none."""
        values = sorted(getattr(self, kind))
        return values[min(len(values) - 1, int(q * len(values)))] if values else None

    @property
    def serve_mb(self) -> float | None:
        """RSS of `credo serve` at the window's end, in MB."""
        return self.serve_rss[-1] / MB if self.serve_rss else None

    @property
    def neo4j_mb(self) -> float | None:
        """RSS of the Neo4j process at the window's end, in MB."""
        return self.neo4j_rss[-1] / MB if self.neo4j_rss else None

    @property
    def neo4j_peak_mb(self) -> float | None:
        """The highest RSS of the Neo4j process sampled in the window, in MB."""
        return max(self.neo4j_rss) / MB if self.neo4j_rss else None


@dataclass(frozen=True)
class Limits:
    """The documented bounds (bench/soak.py's docstring says why each is what it is)."""

    serve_factor: float = 1.25
    serve_margin_mb: float = 50.0
    neo4j_budget_mb: float | None = None  # heap max + page cache + JVM margin; None when the config is not visible
    p50_factor: float = 2.0
    p99_factor: float = 3.0
    latency_floor_ms: float = 20.0


@dataclass(frozen=True)
class Bound:
    """One bound: its name, the measured value, its limit, and whether it held (None: not checkable in this run)."""

    name: str
    measured: str
    limit: str
    held: bool | None

    @property
    def verdict(self) -> str:
        """`ok`, `BROKEN` or `not checked`."""
        return {True: "ok", False: "BROKEN", None: "not checked"}[self.held]


def check(windows: list[Window], limits: Limits) -> list[Bound]:
    """Every bound over the windows: serve RSS, Neo4j RSS, read and write p50 / p99 (later half against earlier
    half), and errors."""
    bounds = [_serve_rss(windows, limits), _neo4j_rss(windows, limits)]
    for kind in ("reads", "writes"):
        for q in (0.5, 0.99):
            bounds.append(_latency(windows, kind, q, limits))
    errors = sum(w.errors for w in windows)
    bounds.append(Bound("errors", str(errors), "0", errors == 0))
    return bounds


def _serve_rss(windows: list[Window], limits: Limits) -> Bound:
    first, last = windows[0].serve_mb, windows[-1].serve_mb
    if first is None or last is None:
        return Bound("serve RSS", "-", "-", None)
    limit = limits.serve_factor * first + limits.serve_margin_mb
    return Bound("serve RSS", f"{last:.0f} MB (last window; first {first:.0f} MB)",
                 f"≤ {limits.serve_factor} × first + {limits.serve_margin_mb:.0f} MB = {limit:.0f} MB",
                 last <= limit)


def _neo4j_rss(windows: list[Window], limits: Limits) -> Bound:
    peaks = [w.neo4j_peak_mb for w in windows if w.neo4j_peak_mb is not None]
    if not peaks or limits.neo4j_budget_mb is None:
        return Bound("Neo4j RSS", f"{max(peaks):.0f} MB (peak)" if peaks else "-", "its configuration not visible",
                     None)
    budget = limits.neo4j_budget_mb
    return Bound("Neo4j RSS", f"{max(peaks):.0f} MB (peak)", f"≤ heap + page cache + margin = {budget:.0f} MB",
                 max(peaks) <= budget)


def _latency(windows: list[Window], kind: str, q: float, limits: Limits) -> Bound:
    """The median over the later half of the windows of their q-quantile, against the same median over the earlier
    half (the middle window of an odd count sits in neither): one noisy window on either side moves nothing."""
    name = f"{kind[:-1]} p{round(q * 100)}"
    half = len(windows) // 2
    early = [v for w in windows[:half] if (v := w.p(kind, q)) is not None]
    late = [v for w in windows[len(windows) - half:] if (v := w.p(kind, q)) is not None]
    if not early or not late:
        return Bound(name, "-", "needs two windows with calls", None)
    before, after = statistics.median(early), statistics.median(late)
    factor = limits.p50_factor if q == 0.5 else limits.p99_factor
    limit = factor * before + limits.latency_floor_ms
    return Bound(name, f"{after:.1f} ms (median of the later {len(late)} windows; earlier {before:.1f} ms)",
                 f"≤ {factor:g} × earlier + {limits.latency_floor_ms:.0f} ms = {limit:.1f} ms",
                 after <= limit)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _mb(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def table(windows: list[Window], bounds: list[Bound], *, title: str) -> str:
    """The markdown report: one row per window, then one row per bound."""
    lines = [f"### {title}", "",
             "| window | reads | writes | read p50 / p95 / p99 ms | write p50 / p95 / p99 ms | serve RSS MB | "
             "Neo4j RSS MB (peak) | errors |",
             "|---|---|---|---|---|---|---|---|"]
    for w in windows:
        lines.append(
            f"| {w.start_s / 60:.1f}–{w.end_s / 60:.1f} min | {len(w.reads)} | {len(w.writes)} | "
            f"{' / '.join(_ms(w.p('reads', q)) for q in (0.5, 0.95, 0.99))} | "
            f"{' / '.join(_ms(w.p('writes', q)) for q in (0.5, 0.95, 0.99))} | {_mb(w.serve_mb)} | "
            f"{_mb(w.neo4j_mb)} ({_mb(w.neo4j_peak_mb)}) | {w.errors} |")
    total = Counter()
    for w in windows:
        total.update(w.ops)
    lines += ["", "operations: " + ", ".join(f"{name} {n}" for name, n in sorted(total.items())), "",
              "| bound | measured | limit | verdict |", "|---|---|---|---|"]
    lines += [f"| {b.name} | {b.measured} | {b.limit} | {b.verdict} |" for b in bounds]
    return "\n".join(lines) + "\n"


def write(text: str, out: str | None) -> None:
    """Write the report to `out` when given."""
    if out:
        Path(out).write_text(text)
