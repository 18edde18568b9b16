"""The faces of the 56 tiles, drawn once each into a texture from the engine's tile data.

A placed tile is a textured quad turned by its rotation (see :func:`ui.hexes.rotated_quad`), so the
board never redraws a tile's links: 56 tiles cost 56 quads. Links are drawn like the real tiles:
coloured bands over a dark hexagon, crossing with a dark border as if one passed over the other.
Each colour also has its own marking (green a dark centre stripe, blue light dashes, red dark dots,
yellow dark rungs) and the colours differ in lightness, so players who confuse red and green or blue
still tell them apart.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Fbo, Line, Mesh, Rectangle
from kivy.graphics.texture import Texture

from engine.tiles import Link, Shape, tile
from . import theme
from .hexes import SQRT3, corners

TEXTURE_SIZE = 256
"""Pixels per tile texture side: sharp up to the largest zoom, still small (56 x 256 KiB)."""
FACE_RADIUS = 0.985
"""The drawn hexagon's circumradius, as a share of half the texture's side."""

Point = tuple[float, float]


def _edge_midpoint(direction: int) -> Point:
    a = math.radians(-60.0 * direction)
    return (SQRT3 / 2 * math.cos(a), SQRT3 / 2 * math.sin(a))


def link_path(link: Link, steps: int = 24) -> list[Point]:
    """The centre line of ``link`` on the unrotated unit tile (circumradius 1, y up), as points.

    A corner link is an arc about the corner its two sides share (radius 1/2), a curve an arc about
    the centre of the hexagon beyond the side between them (radius 3/2), a straight a line."""
    a, b = _edge_midpoint(link.a), _edge_midpoint(link.b)
    if link.shape is Shape.STRAIGHT:
        return [a, b]
    gap = (link.b - link.a) % 6
    first, span = (link.a, gap) if gap <= 3 else (link.b, 6 - gap)
    if link.shape is Shape.CORNER:
        ang = math.radians(-60.0 * first - 30.0)
        cx, cy = math.cos(ang), math.sin(ang)
    else:
        middle = first + span // 2
        ang = math.radians(-60.0 * middle)
        cx, cy = SQRT3 * math.cos(ang), SQRT3 * math.sin(ang)
    a0 = math.atan2(a[1] - cy, a[0] - cx)
    a1 = math.atan2(b[1] - cy, b[0] - cx)
    delta = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    radius = math.hypot(a[0] - cx, a[1] - cy)
    return [
        (cx + radius * math.cos(a0 + delta * i / steps), cy + radius * math.sin(a0 + delta * i / steps))
        for i in range(steps + 1)
    ]


def _dashes(path: list[Point], dash: float, gap: float) -> list[list[Point]]:
    """Split a polyline into dashes of length ``dash`` separated by ``gap`` (unit lengths)."""
    pieces: list[list[Point]] = []
    current: list[Point] = []
    pos, on = gap / 2, False  # start with half a gap so dashes sit symmetrically
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while t < seg:
            step = min(pos, seg - t)
            t += step
            pos -= step
            point = (x0 + (x1 - x0) * t / seg, y0 + (y1 - y0) * t / seg)
            if on:
                current.append(point)
            if pos <= 1e-9:
                on = not on
                pos = dash if on else gap
                if on:
                    current = [point]
                elif len(current) > 1:
                    pieces.append(current)
                    current = []
    return pieces


def _marking(colour: str, path: list[Point], band: float, flat: Any) -> None:
    """Each colour's own marking along its band (:data:`ui.theme.LINK_MARKING`), so that no two
    colours differ by hue alone: green a dark stripe, blue light dashes, red dark dots, yellow dark
    rungs across the band."""
    if colour == "G":
        Color(0.05, 0.25, 0.1, 1)
        Line(points=flat(path), width=band * 0.14, cap="none", joint="round")
    elif colour == "B":
        Color(0.85, 0.92, 1, 1)
        for dash in _dashes(path, 0.09, 0.07):
            Line(points=flat(dash), width=band * 0.13, cap="round", joint="round")
    elif colour == "R":
        Color(0.3, 0.02, 0.02, 1)
        for dot in _dashes(path, 0.001, 0.16):
            x, y = flat(dot[:1])
            Line(circle=(x, y, band * 0.14), width=band * 0.14)
    elif colour == "Y":
        Color(0.3, 0.22, 0.0, 1)
        for rung in _dashes(path, 0.001, 0.13):
            (x0, y0), (x1, y1) = rung[0], rung[-1]
            length = math.hypot(x1 - x0, y1 - y0) or 1.0
            nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # across the band
            half = 0.085
            Line(points=flat([(x0 - nx * half, y0 - ny * half), (x0 + nx * half, y0 + ny * half)]),
                 width=band * 0.07, cap="none")


def _number_spot(paths: list[list[Point]]) -> Point:
    """Where the tile number goes: of the spots near each corner, the one farthest from any link."""
    best, best_d = (0.0, 0.0), -1.0
    for i in range(6):
        ang = math.radians(90 - 60 * i)
        spot = (0.68 * math.cos(ang), 0.68 * math.sin(ang))
        d = min(math.hypot(spot[0] - x, spot[1] - y) for path in paths for x, y in _dense(path))
        if d > best_d:
            best, best_d = spot, d
    return best


def _dense(path: list[Point]) -> list[Point]:
    if len(path) > 2:
        return path
    (x0, y0), (x1, y1) = path
    return [(x0 + (x1 - x0) * i / 12, y0 + (y1 - y0) * i / 12) for i in range(13)]


_ORDER = {Shape.CORNER: 0, Shape.CURVE: 1, Shape.STRAIGHT: 2}


NUMBER_SHARE = 0.1
"""A tile number's height, as a share of the texture's side (twice the tile's circumradius)."""
NUMBER_PX = 12
"""Tile numbers are shown only where they come out at least this many pixels tall: smaller, they
are specks no one can read and only clutter the links."""


def draw_link(colour: str, path: list[Point], flat: Callable[[list[Point]], list[float]], radius: float) -> None:
    """Draw one link band as the tiles show it, into the current canvas: ``path`` on the unit tile,
    ``flat`` turning unit points into flat pixel coordinates, ``radius`` the tile's circumradius in
    pixels. The tile faces and the lines lit on the board (ui.modes.strategy.board) both draw
    with it, so a lit link looks exactly like the link on the tile, patterns included."""
    band = radius * 0.2
    points = flat(path)
    Color(*theme.TILE_FACE)
    Line(points=points, width=band * 0.5 + radius * 0.045, cap="none", joint="round")
    Color(*theme.LINK[colour])
    Line(points=points, width=band * 0.5, cap="none", joint="round")
    _marking(colour, path, band, flat)


def render_face(number: int, size: int = TEXTURE_SIZE, numbered: bool = True) -> Texture:
    """Draw tile ``number`` unrotated into a new ``size`` x ``size`` texture (transparent outside
    the hexagon), with its number in a corner unless ``numbered`` is False."""
    fbo = Fbo(size=(size, size), with_stencilbuffer=False)
    half = size / 2.0
    radius = half * FACE_RADIUS

    def px(p: Point) -> list[float]:
        return [half + p[0] * radius, half + p[1] * radius]

    def flat(path: list[Point]) -> list[float]:
        return [c for p in path for c in px(p)]

    links = sorted(tile(number).links, key=lambda link: _ORDER[link.shape])
    paths = [link_path(link) for link in links]
    with fbo:
        fbo.clear_color = (0, 0, 0, 0)
        hexagon = corners(half, half, radius)
        Color(*theme.TILE_EDGE)
        filled(corners(half, half, radius))
        Color(*theme.TILE_FACE)
        filled(corners(half, half, radius * 0.94))
        for link, path in zip(links, paths):
            draw_link(link.colour, path, flat, radius)
        Color(*theme.TILE_EDGE)
        Line(points=hexagon, width=max(1.0, radius * 0.02), close=True)
        if numbered:
            label = CoreLabel(text=str(number), font_size=size * NUMBER_SHARE, bold=True)
            label.refresh()
            text = label.texture
            x, y = px(_number_spot(paths))
            Color(0.78, 0.78, 0.8, 1)
            Rectangle(texture=text, pos=(x - text.width / 2, y - text.height / 2), size=text.size)
    fbo.draw()
    # copy into a mipmapped texture: tiles stay crisp, not speckled, when drawn small
    texture = Texture.create(size=(size, size), colorfmt="rgba", mipmap=True)
    texture.blit_buffer(fbo.pixels, colorfmt="rgba", bufferfmt="ubyte", mipmap_generation=True)
    texture.min_filter = "linear_mipmap_linear"
    return texture


def filled(points: Sequence[float]) -> Mesh:
    """A filled convex polygon of flat ``points`` (x0, y0, x1, y1...): a fan around its first
    corner, drawn where it is made (in a ``with canvas:``) or added to a group by the caller."""
    vertices: list[float] = []
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0.0, 0.0]
    return Mesh(vertices=vertices, indices=list(range(len(points) // 2)), mode="triangle_fan")


_FACES: dict[tuple[int, bool], Texture] = {}


def face(number: int, radius: float | None = None) -> Texture:
    """The cached texture of tile ``number`` (drawn on first use) for a tile drawn ``radius``
    pixels from centre to corner: numbered only where the number is legible (:data:`NUMBER_PX`);
    ``radius`` None: numbered."""
    numbered = radius is None or radius * 2 * NUMBER_SHARE >= NUMBER_PX
    texture = _FACES.get((number, numbered))
    if texture is None:
        texture = _FACES[number, numbered] = render_face(number, numbered=numbered)
    return texture
