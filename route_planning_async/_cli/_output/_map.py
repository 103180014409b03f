"""A self-contained HTML page with an SVG drawing of the routes (standard library only).

No tiles and no scripts: each route is a coloured line through its stops in
driving order, on a plain background scaled so that a kilometre is the same
length north-south and east-west.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path

from route_planning_async._cli._output._render import format_distance
from route_planning_async._cli._output._summary import RouteSummary

__all__ = ["render_map", "write_map"]

_COLOURS = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#bcbd22", "#7f7f7f",
)  # fmt: skip
_WIDTH = 960
_MARGIN = 24


def render_map(
    routes: Sequence[RouteSummary],
    *,
    depot: tuple[float, float],
    title: str,
    unrouted: Sequence[tuple[float, float]] = (),
) -> str:
    """The HTML page: one polyline per route, stops as dots, the depot as a square."""
    points = [depot, *unrouted, *(point for route in routes for point in route.coordinates)]
    latitudes = [lat for lat, _ in points]
    longitudes = [lng for _, lng in points]
    x_scale = math.cos(math.radians(sum(latitudes) / len(latitudes)))
    span_x = max((max(longitudes) - min(longitudes)) * x_scale, 1e-6)
    span_y = max(max(latitudes) - min(latitudes), 1e-6)
    scale = (_WIDTH - 2 * _MARGIN) / max(span_x, span_y)
    height = round(span_y * scale) + 2 * _MARGIN

    def xy(point: tuple[float, float]) -> tuple[float, float]:
        x = _MARGIN + (point[1] - min(longitudes)) * x_scale * scale
        y = _MARGIN + (max(latitudes) - point[0]) * scale
        return round(x, 1), round(y, 1)

    shapes: list[str] = []
    legend: list[str] = []
    for index, route in enumerate(routes):
        colour = _COLOURS[index % len(_COLOURS)]
        # From the depot, through the deliveries in order, back to the depot.
        path = " ".join(f"{x},{y}" for x, y in map(xy, [depot, *route.coordinates, depot]))
        shapes.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.6" '
            f'stroke-opacity="0.8"><title>{html.escape(route.driver_name)}</title></polyline>'
        )
        shapes.extend(
            f'<circle cx="{x}" cy="{y}" r="2.2" fill="{colour}"/>' for x, y in map(xy, route.coordinates)
        )
        legend.append(
            f'<li><span style="background:{colour}"></span>{html.escape(route.driver_name)}: '
            f"{route.stop_count} stops, {format_distance(route.distance_m)}</li>"
        )
    for x, y in map(xy, unrouted):
        shapes.append(
            f'<circle cx="{x}" cy="{y}" r="3" fill="none" stroke="#000"><title>not routed</title></circle>'
        )
    if unrouted:
        legend.append(
            f'<li><span style="background:#fff;border:1px solid #000"></span>not routed: {len(unrouted)}</li>'
        )
    depot_x, depot_y = xy(depot)
    shapes.append(
        f'<rect x="{depot_x - 6:.1f}" y="{depot_y - 6:.1f}" width="12" height="12" fill="#000">'
        "<title>depot</title></rect>"
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }}
svg {{ background: #f4f1ea; border: 1px solid #ccc; max-width: 100%; height: auto; }}
ul {{ list-style: none; padding: 0; columns: 2; }}
li span {{ display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.4em; vertical-align: middle; }}
</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}" height="{height}">
{chr(10).join(shapes)}
</svg>
<ul>
{chr(10).join(legend)}
</ul>
</body>
</html>
"""


def write_map(
    path: Path,
    routes: Sequence[RouteSummary],
    *,
    depot: tuple[float, float],
    title: str,
    unrouted: Sequence[tuple[float, float]] = (),
) -> None:
    """Write :func:`render_map`'s page to ``path``."""
    path.write_text(render_map(routes, depot=depot, title=title, unrouted=unrouted), encoding="utf-8")
