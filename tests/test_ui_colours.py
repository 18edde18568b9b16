"""Colour every player can read: the four link colours and the board's marks compared pair by pair
in normal vision and simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009 at full
severity, through colorspacious).

The rule: every link colour stands out from the tile face by at least 3 : 1 (WCAG's contrast for
graphics) in every vision; two link colours are either far apart (CAM02-UCS distance of at least
20) or told apart by their markings, which are four different ones, each drawn on the tile; a mark
(refused, fits) is at least 20 away from every link colour in every vision, so no mark is taken for
a link.
"""

from __future__ import annotations

import itertools

import numpy as np
from colorspacious import cspace_convert, deltaE

from ui import theme
from ui.audit import contrast
from ui_harness import run_scenario

VISIONS = ("normal", "protanomaly", "deuteranomaly", "tritanomaly")
FAR = 20.0


def seen(colour: theme.RGBA, vision: str) -> np.ndarray:
    rgb = np.array(colour[:3])
    if vision == "normal":
        return rgb
    cvd = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
    return np.clip(cspace_convert(rgb, cvd, "sRGB1"), 0, 1)


def distance(a: theme.RGBA, b: theme.RGBA, vision: str) -> float:
    return float(deltaE(seen(a, vision), seen(b, vision), input_space="sRGB1"))


def test_every_link_colour_stands_out_from_the_tile_face_in_every_vision():
    for vision, (name, colour) in itertools.product(VISIONS, theme.LINK.items()):
        ratio = contrast(seen(colour, vision), seen(theme.TILE_FACE, vision))
        assert ratio >= 3.0, f"{name} on the tile face in {vision}: {ratio:.2f} : 1"


def test_link_colours_that_look_alike_differ_by_their_markings():
    assert len(set(theme.LINK_MARKING.values())) == 4 and set(theme.LINK_MARKING) == set(theme.LINK)
    alike = {(a, b, vision) for vision in VISIONS for a, b in itertools.combinations(theme.LINK, 2)
             if distance(theme.LINK[a], theme.LINK[b], vision) < FAR}
    # red and green for a deuteranope (and a few more pairs) come close: the markings carry them
    assert ("R", "G", "deuteranomaly") in alike
    assert all(theme.LINK_MARKING[a] != theme.LINK_MARKING[b] for a, b, _ in alike)


def test_no_mark_can_be_taken_for_a_link_colour():
    for mark, vision, (name, colour) in itertools.product((theme.MARK_REFUSED, theme.MARK_FITS), VISIONS,
                                                          theme.LINK.items()):
        assert distance(mark, colour, vision) >= FAR, (mark, name, vision)
    assert contrast(theme.MARK_REFUSED, theme.TABLE) >= 3.0 and contrast(theme.MARK_FITS, theme.TABLE) >= 3.0


def test_the_old_red_failed_the_rule():
    """The rule can fail: the red of before (4.0 : 1, 2.7 : 1 for a protanope) is refused."""
    old_red = theme.rgb("#e8262d")
    assert contrast(seen(old_red, "protanomaly"), seen(theme.TILE_FACE, "protanomaly")) < 3.0
    assert distance(theme.rgb("#ff4d4d"), theme.LINK["G"], "deuteranomaly") < FAR  # the old "refused"


def scenario_markings(app):
    """Each colour's marking is drawn: along a link's centre line (where an unmarked band is its
    colour throughout) some pixels are far from the link's colour."""
    from engine.tiles import Shape, tile
    from ui import tileart

    yield
    found = {}
    for number in range(1, 57):
        for link in tile(number).links:
            if link.colour in found or link.shape is not Shape.CORNER:  # a corner link crosses none
                continue
            texture = tileart.render_face(number, 128)
            pixels, size = bytes(texture.pixels), texture.size[0]
            colours = set()
            for x, y in tileart.link_path(link, 48)[8:-8]:  # not at the tile's edge
                px, py = int(size / 2 + x * size / 2 * 0.985), int(size / 2 + y * size / 2 * 0.985)
                i = (py * size + px) * 4
                colours.add(tuple(pixels[i:i + 3]))
            link_rgb = tuple(round(c * 255) for c in theme.LINK[link.colour][:3])
            found[link.colour] = len([c for c in colours if max(abs(a - b) for a, b in zip(c, link_rgb)) > 90])
        if len(found) == 4:
            break
    return found


def test_every_link_colour_carries_its_marking_on_the_tile():
    found = run_scenario("test_ui_colours", "scenario_markings", size=(400, 300))
    assert set(found) == {"R", "Y", "G", "B"}
    for colour, marking in found.items():
        assert marking, f"{colour}: its band is one flat colour along its centre line"
