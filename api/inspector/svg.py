"""The timeline picture, drawn by the server: every version a rectangle in valid time (x) × known time (y).

Pure functions over Fact versions: `layout` places and labels them, `draw` writes the SVG text (escaped).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from html import escape

from credo.api.inspector.views import Rectangle
from credo.schema.facts import Fact

WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 960.0, 220.0, 110.0, 34.0, 12.0, 16.0
Span = tuple[datetime, datetime, datetime, datetime]


def label_of(fact: Fact) -> str:
    """What a rectangle shows: how the version ended, or what it is now (conflict, current, ...)."""
    if fact.state == "conflicted":
        return "conflict"
    if fact.disputed:
        return "disputed"
    if fact.ended_by is not None:
        return str(fact.ended_by.value if hasattr(fact.ended_by, "value") else fact.ended_by)
    if fact.state not in ("active", "reinforced"):
        return fact.state
    return "current"


def span_of(versions: list[Fact], now: datetime) -> Span:
    """The picture's ranges: valid time (x) and known time (y) covering every version and now, padded."""
    valid = [t for f in versions for t in (f.valid_from, f.valid_to) if t is not None]
    known = [t for f in versions for t in (f.known_from, f.known_to) if t is not None]
    v0, v1 = min(valid + known), max(valid + [now])
    k0, k1 = min(known), max(known + [now])
    pad_v, pad_k = max((v1 - v0) / 20, timedelta(days=1)), max((k1 - k0) / 20, timedelta(seconds=1))
    return v0 - pad_v, v1 + pad_v, k0, k1 + pad_k


def layout(versions: list[Fact], span: Span) -> list[Rectangle]:
    """One rectangle per version within the ranges (open ends reach the picture's edge)."""
    v0, v1, k0, k1 = span
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(t: datetime | None, default: float) -> float:
        return default if t is None else LEFT + plot_w * ((t - v0) / (v1 - v0))

    def y(t: datetime | None) -> float:
        t = t or k1
        return TOP + plot_h * (1 - (t - k0) / (k1 - k0))

    rects = []
    for f in versions:
        left, right = x(f.valid_from, LEFT), x(f.valid_to, WIDTH - RIGHT)
        top, bottom = y(f.known_to), y(f.known_from)
        rects.append(Rectangle(
            predicate=f.predicate, fact_id=f.fact_id, version_id=f.version_id, statement=f.statement, object_name=f.object_name,
            state=f.state, label=label_of(f), valid_from=f.valid_from, valid_to=f.valid_to, known_from=f.known_from,
            known_to=f.known_to, x=round(left, 1), y=round(top, 1), width=round(max(right - left, 2.0), 1),
            height=round(max(bottom - top, 3.0), 1)))
    return rects


def _day(t: datetime) -> str:
    return t.strftime("%Y-%m-%d")


def _when(t: datetime, span: timedelta) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S" if span < timedelta(days=2) else "%Y-%m-%d")


def _cross(span: Span, valid_at: datetime | None, known_at: datetime | None) -> list[str]:
    v0, v1, k0, k1 = span
    marks = []
    if valid_at is not None and v0 <= valid_at <= v1:
        x = LEFT + (WIDTH - LEFT - RIGHT) * ((valid_at - v0) / (v1 - v0))
        marks.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" class="as-of-line"/>')
    if known_at is not None and k0 <= known_at <= k1:
        y = TOP + (HEIGHT - TOP - BOTTOM) * (1 - (known_at - k0) / (k1 - k0))
        marks.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" class="as-of-line"/>')
    return marks


def draw(rects: list[Rectangle], span: Span, *, title: str, valid_at: datetime | None = None,
         known_at: datetime | None = None) -> str:
    """The SVG text: axes, one labelled, focusable rectangle per version with a <title> shown on hover, and
    dashed lines through the as-of point."""
    v0, v1, k0, k1 = span
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {HEIGHT:.0f}" role="img" '
             f'aria-labelledby="tl-title" class="timeline"><title id="tl-title">{escape(title)}</title>',
             f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" class="axis"/>',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" class="axis"/>',
             f'<text x="{LEFT}" y="{HEIGHT - 8}" class="tick">{_day(v0)}</text>',
             f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" class="tick" text-anchor="end">{_day(v1)}</text>',
             f'<text x="{(LEFT + WIDTH) / 2}" y="{HEIGHT - 8}" class="tick" text-anchor="middle">valid time →</text>',
             f'<text x="4" y="{HEIGHT - BOTTOM}" class="tick">{_when(k0, k1 - k0)}</text>',
             f'<text x="4" y="{TOP + 10}" class="tick">{_when(k1, k1 - k0)}</text>',
             f'<text x="4" y="{(TOP + HEIGHT) / 2}" class="tick">known time ↑</text>']
    for r in rects:
        hover = (f"{r.statement} [{r.label}, {r.state}] valid {r.valid_from or '…'} – {r.valid_to or 'open'}; "
                 f"known {r.known_from} – {r.known_to or 'now'} ({r.version_id})")
        parts.append(
            f'<a href="/ui/facts/{escape(r.fact_id)}" class="vlink">'
            f'<g class="version {escape(r.label)}" tabindex="0" data-version="{escape(r.version_id)}">'
            f'<title>{escape(hover)}</title>'
            f'<rect x="{r.x}" y="{r.y}" width="{r.width}" height="{r.height}"/>'
            f'<text x="{r.x + 4}" y="{r.y + min(r.height - 3, 14)}" class="rect-label">'
            f'{escape(r.object_name)} · {escape(r.label)}</text></g></a>')
    parts += _cross(span, valid_at, known_at)
    parts.append("</svg>")
    return "".join(parts)
