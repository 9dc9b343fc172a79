"""The timeline picture, drawn by the server: every version a rectangle in valid time (x) × known time (y).

Pure functions over Fact versions: `layout` places and labels them, `draw` writes the SVG text (escaped).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from html import escape

from credo.api.pages.views import Rectangle
from credo.schema.facts import Fact

WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 960.0, 420.0, 70.0, 40.0, 14.0, 16.0


def label_of(fact: Fact) -> str:
    """What a rectangle shows: how the version ended, or what it is now (conflict, current, ...)."""
    if fact.state == "conflicted" or fact.disputed:
        return "conflict"
    if fact.ended_by is not None:
        return str(fact.ended_by.value if hasattr(fact.ended_by, "value") else fact.ended_by)
    if fact.state not in ("active", "reinforced"):
        return fact.state
    return "current"


def _span(versions: list[Fact], now: datetime) -> tuple[datetime, datetime, datetime, datetime]:
    valid = [t for f in versions for t in (f.valid_from, f.valid_to) if t is not None]
    known = [t for f in versions for t in (f.known_from, f.known_to) if t is not None]
    v0, v1 = min(valid + known), max(valid + [now])
    k0, k1 = min(known), max(known + [now])
    pad_v, pad_k = max((v1 - v0) / 20, timedelta(days=1)), max((k1 - k0) / 20, timedelta(seconds=1))
    return v0 - pad_v, v1 + pad_v, k0, k1 + pad_k


def layout(versions: list[Fact], now: datetime) -> tuple[list[Rectangle], tuple[datetime, datetime, datetime, datetime]]:
    """One rectangle per version (open ends reach the picture's edge) and the axes' ranges."""
    if not versions:
        return [], (now, now, now, now)
    v0, v1, k0, k1 = span = _span(versions, now)
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
            fact_id=f.fact_id, version_id=f.version_id, statement=f.statement, object_name=f.object_name,
            state=f.state, label=label_of(f), valid_from=f.valid_from, valid_to=f.valid_to, known_from=f.known_from,
            known_to=f.known_to, x=round(left, 1), y=round(top, 1), width=round(max(right - left, 2.0), 1),
            height=round(max(bottom - top, 3.0), 1)))
    return rects, span


def _day(t: datetime) -> str:
    return t.strftime("%Y-%m-%d")


def draw(rects: list[Rectangle], span: tuple[datetime, datetime, datetime, datetime], *, title: str) -> str:
    """The SVG text: axes, one labelled, focusable rectangle per version with a <title> shown on hover."""
    v0, v1, k0, k1 = span
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {HEIGHT:.0f}" role="img" '
             f'aria-labelledby="tl-title" class="timeline"><title id="tl-title">{escape(title)}</title>',
             f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" class="axis"/>',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" class="axis"/>',
             f'<text x="{LEFT}" y="{HEIGHT - 8}" class="tick">{_day(v0)}</text>',
             f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" class="tick" text-anchor="end">{_day(v1)}</text>',
             f'<text x="{(LEFT + WIDTH) / 2}" y="{HEIGHT - 8}" class="tick" text-anchor="middle">valid time →</text>',
             f'<text x="4" y="{HEIGHT - BOTTOM}" class="tick">{_day(k0)}</text>',
             f'<text x="4" y="{TOP + 10}" class="tick">{_day(k1)}</text>',
             f'<text x="4" y="{(TOP + HEIGHT) / 2}" class="tick">known ↑</text>']
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
    parts.append("</svg>")
    return "".join(parts)
