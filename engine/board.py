"""The Tantrix board: placed tiles, the rules that decide a placement, forced spaces, holes, lines.

One place decides each rule (rules.md sections 3 and 4):

* contact: a tile touches a placed tile (the very first one goes in the middle, cell (0, 0));
* the golden rule: touching edges show the same colour;
* while the bag is not empty, the three restrictions: no forced space whose neighbours all show one
  colour (1), no empty cell with four or more neighbours (2), and no controlled side, decided by the
  fill cascade (3).

The board keeps incremental state so that the questions robots and puzzles ask thousands of times
a second stay cheap: for every empty cell next to a tile it knows how many neighbours it has and
which colour each of them demands (a six-character *requirement* such as ``"R..B.."``), and it
keeps the set of forced spaces. Which rotations of a tile fit a requirement is memoised globally.
The fill cascade is kept as fill times per cell (see ``_cascade_after``): a candidate placement
only re-examines the cells whose times it changes, and the times computed for the placement
actually made become the next position's, so a game or playout rarely runs a cascade from scratch.
"""

from __future__ import annotations

import re
from enum import IntFlag, StrEnum
from heapq import heappop, heappush
from typing import Callable, Iterable, NamedTuple

from .geometry import LIMIT, STEP, Cell, in_range, key, unkey
from .refusals import IllegalPlacement as IllegalPlacement
from .refusals import PositionError as PositionError
from .refusals import Refused as Refused
from .tiles import COLOURS, FACES, OTHER_END

ORIGIN = key((0, 0))
_NEVER = 1 << 30  # fill time of a cell the cascade never reaches
_EMPTY_NEED = "......"


class Placement(NamedTuple):
    """Tile ``tile`` on cell ``(q, r)`` with rotation ``rot`` (edge i faces direction (i + rot) % 6)."""

    tile: int
    q: int
    r: int
    rot: int

    @property
    def cell(self) -> Cell:
        return (self.q, self.r)

    def to_json(self) -> dict[str, int]:
        return {"tile": self.tile, "q": self.q, "r": self.r, "rot": self.rot}


class Rule(StrEnum):
    """The rule a refused placement breaks; the value is a stable code the UI translates."""

    NO_SUCH_TILE = "no-such-tile"
    TILE_ALREADY_PLACED = "tile-already-placed"
    OCCUPIED = "occupied"
    CONTACT = "contact"
    GOLDEN_RULE = "golden-rule"
    DEAD_FORCED_SPACE = "restriction-1"
    FOUR_NEIGHBOURS = "restriction-2"
    CONTROLLED_SIDE = "restriction-3"


class Status(IntFlag):
    """Why a position cannot arise in a game (as python-chess's ``Board.status()``): the restrictions
    it already breaks while the bag holds tiles. Legal play never leads there; a loaded position can."""

    VALID = 0
    DEAD_FORCED_SPACE = 1
    """Restriction 1: a forced space whose neighbours all show one colour (no tile will ever fill it)."""
    FOUR_NEIGHBOURS = 2
    """Restriction 2: an empty cell with four or more neighbours."""
    CONTROLLED_SIDE = 4
    """Restriction 3: filling the forced spaces leads to a space with four neighbours."""


class ForcedSpace(NamedTuple):
    """An empty cell with three or more neighbours, and the colours they show it (clockwise from E)."""

    q: int
    r: int
    pattern: str

    @property
    def cell(self) -> Cell:
        return (self.q, self.r)


class Line(NamedTuple):
    """A chain of one colour's links: its tiles' cells in order along it, and whether it closes."""

    colour: str
    cells: tuple[Cell, ...]
    loop: bool

    @property
    def length(self) -> int:
        return len(self.cells)


_FITS: dict[tuple[int, str], tuple[int, ...]] = {}
FITS_KEPT = 20_000
"""At most this many (tile, requirement) answers are kept (a few MB): game after game meets new
requirements, and a kiosk plays for weeks; when full the table starts afresh."""


def fits(tile: int, need: str) -> tuple[int, ...]:
    """The rotations of ``tile`` whose face agrees with the requirement ``need`` ('.' = no demand).

    A requirement reads as a regular expression ('.' matches any colour), which lets the C regex
    engine do the comparing the first time a (tile, requirement) pair is met.
    """
    found = _FITS.get((tile, need))
    if found is None:
        if len(_FITS) >= FITS_KEPT:
            _FITS.clear()
        match = re.compile(need).match
        found = _FITS[(tile, need)] = tuple(rot for rot, face in enumerate(FACES[tile]) if match(face))
    return found


def _placement(tile: int, k: int, rot: int) -> Placement:
    q, r = unkey(k)
    return Placement(tile, q, r, rot)


_Refusal = Callable[[], Refused]


class Board:
    """Placed tiles and the rules. ``bag`` counts the tiles still to be drawn; restrictions apply
    while it is above zero, unless a caller says otherwise (solo modes pass ``restricted=False``)."""

    def __init__(self, bag: int = 0) -> None:
        self.bag = bag
        self._tile_at: dict[int, tuple[int, int]] = {}  # key -> (tile, rot)
        self._face: dict[int, str] = {}  # key -> colours shown towards directions 0..5
        self._count: dict[int, int] = {}  # empty key -> number of neighbours (only when > 0)
        self._need: dict[int, str] = {}  # empty key -> requirement, '.' where no neighbour
        self._forced: set[int] = set()  # empty keys with 3+ neighbours
        self._where: dict[int, int] = {}  # tile -> key
        self._history: list[tuple[int, int, int]] = []  # (tile, key, rot) in placement order
        self._cache: dict[str, object] = {}  # derived per position, cleared by every change

    # ----------------------------------------------------------------- reading the position

    def __len__(self) -> int:
        return len(self._history)

    def __contains__(self, cell: Cell) -> bool:
        return key(cell) in self._tile_at

    @property
    def restricted(self) -> bool:
        """Whether the three restrictions apply now (the bag still holds tiles)."""
        return self.bag > 0

    def at(self, cell: Cell) -> Placement | None:
        """The placement on ``cell``, or None when it is empty."""
        k = key(cell)
        found = self._tile_at.get(k)
        return None if found is None else _placement(found[0], k, found[1])

    def placements(self) -> list[Placement]:
        """Every placed tile, in the order it was placed."""
        return [_placement(t, k, rot) for t, k, rot in self._history]

    def placed_tiles(self) -> set[int]:
        return set(self._where)

    def cell_of(self, tile: int) -> Cell | None:
        k = self._where.get(tile)
        return None if k is None else unkey(k)

    def shows(self, cell: Cell, direction: int) -> str | None:
        """The colour the tile on ``cell`` shows towards ``direction`` (None for an empty cell)."""
        face = self._face.get(key(cell))
        return None if face is None else face[direction]

    def neighbour_count(self, cell: Cell) -> int:
        """How many placed tiles touch the empty ``cell``."""
        return self._count.get(key(cell), 0)

    def requirement(self, cell: Cell) -> str:
        """Colours the neighbours of ``cell`` show it, per direction 0..5, '.' where there is none."""
        return self._need.get(key(cell), _EMPTY_NEED)

    def frontier(self) -> list[Cell]:
        """Empty cells touching at least one tile."""
        return [unkey(k) for k in self._count]

    def forced_spaces(self) -> list[ForcedSpace]:
        """Empty cells with three or more neighbours, with their patterns, sorted by (r, q)."""
        spaces = []
        for k in self._forced:
            q, r = unkey(k)
            spaces.append(ForcedSpace(q, r, self._need[k].replace(".", "")))
        return sorted(spaces, key=lambda s: (s.r, s.q))

    def is_forced(self, cell: Cell) -> bool:
        return key(cell) in self._forced

    def status(self) -> Status:
        """:attr:`Status.VALID`, or the restrictions this position already breaks while the bag holds
        tiles (then the rules still judge each placement by the position after it: filling a space
        with four neighbours is legal if it leaves none, while a dead forced space refuses all)."""
        status = Status.VALID
        for problem in self.problems():
            status |= _STATUS[Rule(problem.rule)]
        return status

    def problems(self) -> list[Refused]:
        """What :meth:`status` finds, each with the cells to look at and plain words."""
        if not self.restricted:
            return []
        found = [_dead_refusal(k, self._need[k]).reworded(
                     "a forced space has neighbours that all show one colour while the bag holds tiles")
                 for k in sorted(self._dead_forced())]
        found += [Refused(Rule.FOUR_NEIGHBOURS, "a space has four or more neighbours while the bag holds tiles",
                          (unkey(k),))
                  for k in sorted(self._count) if self._count[k] >= 4]
        if self._times() is None and not any(v.rule is Rule.FOUR_NEIGHBOURS for v in found):
            failed, times = self._relax(dict.fromkeys(self._tile_at, 0), None, list(self._forced))
            assert failed is not None
            found.append(Refused(Rule.CONTROLLED_SIDE,
                                 "filling the forced spaces would leave a space with four neighbours", (unkey(failed),)))
        return found

    # ------------------------------------------------------------------------ the rules

    def fits(self, tile: int, cell: Cell) -> tuple[int, ...]:
        """Rotations of ``tile`` that keep the golden rule on the empty ``cell`` (contact aside)."""
        return fits(tile, self.requirement(cell))

    def check(self, placement: Placement, restricted: bool | None = None) -> Refused | None:
        """None when ``placement`` is legal now, otherwise the first rule it breaks."""
        refusal = self._judge(placement, restricted)
        return None if refusal is None else refusal()

    def is_legal(self, placement: Placement, restricted: bool | None = None) -> bool:
        """Whether :meth:`check` would accept ``placement``, without wording a refusal."""
        return self._judge(placement, restricted) is None

    def _judge(self, placement: Placement, restricted: bool | None) -> _Refusal | None:
        """Decide ``placement``; a refusal is returned as a function that words the refusal, so
        that robots and playouts, which only need the verdict, never pay for the wording."""
        tile, q, r, rot = placement
        if not 1 <= tile <= 56 or not 0 <= rot <= 5 or not in_range((q, r)):
            return lambda: Refused(Rule.NO_SUCH_TILE, f"tile {tile} rot {rot} at ({q}, {r}) is not a placement")
        if tile in self._where:
            there = unkey(self._where[tile])
            return lambda: Refused(Rule.TILE_ALREADY_PLACED, f"tile {tile} is already on the board", (there,))
        k = key((q, r))
        cell = (q, r)
        if k in self._tile_at:
            return lambda: Refused(Rule.OCCUPIED, "that space already holds a tile", (cell,))
        if not self._tile_at:
            if k != ORIGIN:
                return lambda: Refused(Rule.CONTACT, "the first tile goes in the middle, on (0, 0)", (cell,))
            return None
        if k not in self._count:
            return lambda: Refused(Rule.CONTACT, "a tile must touch a tile already on the board", (cell,))
        face = FACES[tile][rot]
        need = self._need[k]
        wrong = [d for d in range(6) if need[d] != "." and need[d] != face[d]]
        if wrong:
            cells = (cell,) + tuple(unkey(k + STEP[d]) for d in wrong)
            return lambda: Refused(Rule.GOLDEN_RULE, "touching edges must show the same colour", cells)
        if self.restricted if restricted is None else restricted:
            return self._restriction(k, face)
        return None

    def legal_placements(
        self,
        tiles: Iterable[int],
        cells: Iterable[Cell] | None = None,
        restricted: bool | None = None,
    ) -> list[Placement]:
        """Every legal placement of each of ``tiles`` (optionally only on ``cells``).

        Tiles already on the board have none. Ordered by cell (q, then r), then tile in the order
        given, then rotation: the same position always gives the same list, whatever its history.
        """
        restricted = self.restricted if restricted is None else restricted
        hand = [t for t in tiles if t not in self._where]
        if not self._tile_at:
            if cells is not None and ORIGIN not in {key(c) for c in cells}:
                return []
            return [Placement(t, 0, 0, rot) for t in hand for rot in range(6)]
        if restricted and self._dead_forced():
            return []  # restriction 1 already broken: no placement can mend it
        keys = sorted(self._count if cells is None else {k for k in map(key, cells) if k in self._count})
        need_of = self._need
        known = _FITS
        found: list[Placement] = []
        for k in keys:
            need = need_of[k]
            options = []
            for t in hand:
                rots = known.get((t, need))
                if rots is None:
                    rots = fits(t, need)
                if rots:
                    options.append((t, rots))
            if not options:
                continue
            risky: list[tuple[int, str]] = []
            if restricted:
                if self._cascade_after(k) is not None:
                    continue  # rules 2 or 3 refuse this cell whatever goes on it
                risky = self._one_colour_sides(k)
            q, r = unkey(k)
            for t, rots in options:
                faces = FACES[t]
                for rot in rots:
                    if risky:
                        face = faces[rot]
                        if any(face[d] == colour for d, colour in risky):
                            continue
                    found.append(Placement(t, q, r, rot))
        return found

    def fitting_tiles(self, cell: Cell, tiles: Iterable[int], restricted: bool | None = None) -> list[int]:
        """Which of ``tiles`` could legally go on the empty ``cell`` (in some rotation).

        With ``restricted=False`` this is the golden rule alone: what will fit in the endgame.
        """
        return sorted({p.tile for p in self.legal_placements(tiles, [cell], restricted)})

    def _restriction(self, k: int, face: str) -> _Refusal | None:
        """Restrictions 1-3 for ``face`` going on the empty, touching, golden-rule-clean ``k``,
        reported in the order the rules number them (a four-sided space first: it is step 0 of the
        cascade)."""
        failed = self._cascade_after(k)
        tile_at = self._tile_at
        if failed is not None and _four_sided(k, failed[0], tile_at):
            return lambda: _cascade_refusal(k, *failed, tile_at)
        dead = self._dead_forced()
        if dead:
            return lambda: _dead_refusal(dead[0], self._need[dead[0]])
        for d, colour in self._one_colour_sides(k):
            if face[d] == colour:
                n, o = k + STEP[d], (d + 3) % 6
                need = self._need[n][:o] + colour + self._need[n][o + 1 :]
                return lambda: _dead_refusal(n, need)
        if failed is not None:
            return lambda: _cascade_refusal(k, *failed, tile_at)
        return None

    def _one_colour_sides(self, k: int) -> list[tuple[int, str]]:
        """Directions from the empty ``k`` towards a space whose two neighbours show one colour:
        showing that colour there would make a forced space no tile can fill (restriction 1)."""
        sides = []
        for d in range(6):
            n = k + STEP[d]
            if n not in self._tile_at and self._count.get(n, 0) == 2:
                colours = {c for c in self._need[n] if c != "."}
                if len(colours) == 1:
                    sides.append((d, colours.pop()))
        return sides

    def _dead_forced(self) -> list[int]:
        """Forced spaces whose neighbours all show one colour (no tile has a colour three times)."""
        dead = self._cache.get("dead")
        if dead is None:
            dead = [
                k for k in self._forced
                if len({c for c in self._need[k] if c != "."}) == 1
            ]
            self._cache["dead"] = dead
        return dead  # type: ignore[return-value]

    def _cascade_after(self, k: int) -> tuple[int, dict[int, int]] | None:
        """Rules 2 and 3 for a tile going on the empty ``k``: the fill cascade after it.

        The cascade is computed as *fill times*: a tile's time is 0 and an empty cell is marked at
        step ``t3 + 1``, where ``t3`` is the third earliest time among its neighbours. The step-by-step
        marking of rules.md fails exactly when some empty cell's fourth earliest neighbour comes no
        later than ``t3 + 1`` (it would have four neighbours while empty, or it and that neighbour
        are marked in the same step). Times of the current position are known; a new tile only
        lowers times, so they are relaxed from it outwards (Dijkstra order), touching only the cells
        whose times change and their neighbours.
        """
        results = self._cache.setdefault("after", {})
        assert isinstance(results, dict)
        found = results.get(k)
        if found is None:
            found = self._quick_four(k)
            if found is None:
                times = self._times()
                if times is None:  # the position's own cascade fails: a position play cannot reach
                    # (see status()); the cell being filled is a tile now, never a seed of the cascade
                    seeds = [f for f in self._forced if f != k]
                    found = self._relax(dict.fromkeys(self._tile_at, 0), k, seeds)
                else:
                    found = self._relax(times, k, ())
            results[k] = found
        failed, times = found
        return None if failed is None else (failed, times)

    def _quick_four(self, k: int) -> tuple[int, dict[int, int]] | None:
        """The common, cheap case of restriction 2: a neighbour of ``k`` already has three tiles."""
        count, tile_at = self._count, self._tile_at
        for s in STEP:
            n = k + s
            if n not in tile_at and count.get(n, 0) >= 3:
                return n, {}
        return None

    def _times(self) -> dict[int, int] | None:
        """Fill times of the current position's cascade, tiles included at 0 (None when it fails)."""
        if "times" not in self._cache:
            start = dict.fromkeys(self._tile_at, 0)
            violation, times = self._relax(start, None, list(self._forced))
            self._cache["times"] = None if violation else times
        return self._cache["times"]  # type: ignore[return-value]

    def _relax(
        self, times: dict[int, int], placed: int | None, seeds: Iterable[int]
    ) -> tuple[int | None, dict[int, int]]:
        """Lower the fill ``times`` (tiles at 0) for a tile on ``placed`` and from the ``seeds``;
        return the first cell found to fail, if any, and the new times (``times`` is not changed)."""
        s0, s1, s2, s3, s4, s5 = STEP
        never = _NEVER
        push = heappush
        over = times.copy()
        get = over.get
        heap: list[tuple[int, int]] = []
        pending = list(seeds)
        if placed is not None:
            over[placed] = 0
            pending += [n for n in (placed + s for s in STEP) if get(n) != 0]
        t = 0
        failing: set[int] = set()  # cells whose latest look (with final neighbour times) fails
        while True:
            for x in pending:
                ts = sorted((get(x + s0, never), get(x + s1, never), get(x + s2, never),
                             get(x + s3, never), get(x + s4, never), get(x + s5, never)))
                if ts[3] < never and ts[3] <= ts[2] + 1:
                    if ts[3] <= t:  # times up to t are final (the heap holds nothing earlier)
                        return x, over
                    failing.add(x)
                else:
                    failing.discard(x)
                if ts[2] + 1 < get(x, never):
                    over[x] = ts[2] + 1
                    push(heap, (ts[2] + 1, x))
            if not heap:
                break
            t, x = heappop(heap)
            if over[x] != t:
                pending = []
                continue
            # a cell filling earlier changes its neighbours' counts: they may fill earlier, or fail;
            # each is looked at again after its last changed neighbour is final. A neighbour that
            # fills before t (tiles included) cannot be affected: x now fills after it, as before.
            pending = [n for n in (x + s0, x + s1, x + s2, x + s3, x + s4, x + s5) if get(n, never) >= t]
        if failing:
            return min(failing), over
        return None, over

    # ------------------------------------------------------------------ changing the board

    def place(self, placement: Placement, restricted: bool | None = None) -> None:
        """Place a tile if the rules allow it now; otherwise raise :class:`IllegalPlacement`."""
        refusal = self.check(placement, restricted)
        if refusal is not None:
            raise IllegalPlacement(placement, refusal)
        self.push(placement)

    def push(self, placement: Placement) -> None:
        """Place a tile without checking contact, the golden rule or the restrictions.

        For callers that already know the placement is legal (it came from
        :meth:`legal_placements`) or that rebuild a recorded position.
        """
        tile, q, r, rot = placement
        k = key((q, r))
        if k in self._tile_at or tile in self._where:
            raise ValueError(f"tile {tile} or cell ({q}, {r}) is already used")
        after = self._cache.get("after")
        carried = after.get(k) if isinstance(after, dict) else None
        face = FACES[tile][rot]
        tile_at, count, need, forced = self._tile_at, self._count, self._need, self._forced
        tile_at[k] = (tile, rot)
        self._face[k] = face
        self._where[tile] = k
        self._history.append((tile, k, rot))
        if k in count:
            del count[k]
            del need[k]
            forced.discard(k)
        for d in range(6):
            n = k + STEP[d]
            if n in tile_at:
                continue
            c = count.get(n, 0) + 1
            count[n] = c
            o = (d + 3) % 6
            old = need.get(n, _EMPTY_NEED)
            need[n] = old[:o] + face[d] + old[o + 1 :]
            if c >= 3:
                forced.add(n)
        self._cache.clear()
        if carried is not None and carried[0] is None:
            self._cache["times"] = carried[1]  # the cascade computed for this cell is the new one

    def undo(self) -> Placement:
        """Take back the last placed tile and return its placement."""
        tile, k, rot = self._history.pop()
        tile_at, count, need, forced = self._tile_at, self._count, self._need, self._forced
        del tile_at[k]
        del self._face[k]
        del self._where[tile]
        own = list(_EMPTY_NEED)
        c_own = 0
        for d in range(6):
            n = k + STEP[d]
            face = self._face.get(n)
            if face is not None:
                own[d] = face[(d + 3) % 6]
                c_own += 1
                continue
            c = count[n] - 1
            if c:
                count[n] = c
                o = (d + 3) % 6
                old = need[n]
                need[n] = old[:o] + "." + old[o + 1 :]
                if c < 3:
                    forced.discard(n)
            else:
                del count[n]
                del need[n]
        if c_own:
            count[k] = c_own
            need[k] = "".join(own)
            if c_own >= 3:
                forced.add(k)
        self._cache.clear()
        return _placement(tile, k, rot)

    def copy(self) -> Board:
        other = Board(self.bag)
        other._tile_at = dict(self._tile_at)
        other._face = dict(self._face)
        other._count = dict(self._count)
        other._need = dict(self._need)
        other._forced = set(self._forced)
        other._where = dict(self._where)
        other._history = list(self._history)
        return other

    # ------------------------------------------------------------------- whole-board views

    def holes(self) -> list[list[Cell]]:
        """Groups of empty cells enclosed by tiles (not connected to the outside through empty cells)."""
        if not self._tile_at:
            return []
        cells = [unkey(k) for k in self._tile_at]
        qs = [c[0] for c in cells]
        rs = [c[1] for c in cells]
        q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1

        def inside(c: Cell) -> bool:
            return q0 <= c[0] <= q1 and r0 <= c[1] <= r1

        tile_at = self._tile_at
        outside = {
            key((q, r)) for q in range(q0, q1 + 1) for r in range(r0, r1 + 1)
            if q in (q0, q1) or r in (r0, r1)
        }
        todo = list(outside)
        while todo:
            k = todo.pop()
            for s in STEP:
                n = k + s
                if n not in outside and n not in tile_at and inside(unkey(n)):
                    outside.add(n)
                    todo.append(n)
        enclosed = {k for k in self._count if k not in outside}
        groups: list[list[Cell]] = []
        while enclosed:
            group = [enclosed.pop()]
            todo = list(group)
            while todo:
                k = todo.pop()
                for s in STEP:
                    n = k + s
                    if n not in tile_at and n not in outside and inside(unkey(n)) and n not in group:
                        enclosed.discard(n)
                        group.append(n)
                        todo.append(n)
            groups.append(sorted((unkey(k) for k in group), key=lambda c: (c[1], c[0])))
        return sorted(groups, key=lambda g: (g[0][1], g[0][0]))

    def lines(self, colour: str) -> list[Line]:
        """Every chain of ``colour``'s links, longest first (loops before lines of equal length)."""
        cached = self._cache.get("lines:" + colour)
        if cached is not None:
            return cached  # type: ignore[return-value]
        tile_at, face_at = self._tile_at, self._face
        seen: set[int] = set()
        found: list[Line] = []
        for start in self._tile_at:
            face = face_at[start]
            if start in seen or colour not in face:
                continue
            seen.add(start)
            first = face.index(colour)
            ahead, loop = self._walk(start, first, colour, seen)
            behind: list[int] = []
            if not loop:
                tile, rot = tile_at[start]
                behind, _ = self._walk(start, OTHER_END[tile][rot][first], colour, seen)
            chain = behind[::-1] + [start] + ahead
            found.append(Line(colour, tuple(unkey(k) for k in chain), loop))
        found.sort(key=lambda line: (-line.length, not line.loop))
        self._cache["lines:" + colour] = found
        return found

    def _walk(self, start: int, direction: int, colour: str, seen: set[int]) -> tuple[list[int], bool]:
        """Follow ``colour`` from ``start`` leaving by ``direction``; the tiles met, and whether the
        walk came back to ``start`` (a loop)."""
        tile_at, face_at = self._tile_at, self._face
        path: list[int] = []
        k, d = start, direction
        while True:
            n = k + STEP[d]
            back = (d + 3) % 6
            face = face_at.get(n)
            if face is None or face[back] != colour:
                return path, False
            if n == start:
                return path, True
            path.append(n)
            seen.add(n)
            tile, rot = tile_at[n]
            k, d = n, OTHER_END[tile][rot][back]

    def longest(self, colour: str) -> tuple[int, int]:
        """(longest open line, longest loop) of ``colour``, in tiles."""
        line = loop = 0
        for chain in self.lines(colour):
            if chain.loop:
                loop = max(loop, chain.length)
            else:
                line = max(line, chain.length)
        return line, loop

    def score(self, colour: str) -> int:
        """The strategy game's score of ``colour``: max(longest line, 2 x longest loop)."""
        line, loop = self.longest(colour)
        return max(line, 2 * loop)

    def scores(self) -> dict[str, int]:
        return {c: self.score(c) for c in COLOURS}

    def golden_rule_breaks(self) -> list[tuple[Cell, Cell]]:
        """Pairs of touching tiles whose shared edges differ (empty for a valid position)."""
        breaks = []
        for k, face in self._face.items():
            for d in range(3):  # each touching pair once
                n = k + STEP[d]
                other = self._face.get(n)
                if other is not None and other[(d + 3) % 6] != face[d]:
                    breaks.append((unkey(k), unkey(n)))
        return breaks

    # ---------------------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, object]:
        """The position in the rules.md format: tiles in the order they were placed, and the bag."""
        return {"tiles": [p.to_json() for p in self.placements()], "bag": self.bag}

    @classmethod
    def from_json(cls, data: object) -> Board:
        """Rebuild a position; :class:`PositionError` names what is wrong with a bad one."""
        if not isinstance(data, dict):
            raise PositionError("a position must be a JSON object with \"tiles\" and \"bag\"")
        bag = data.get("bag", 0)
        if not isinstance(bag, int) or isinstance(bag, bool) or not 0 <= bag <= 56:
            raise PositionError(f"\"bag\" must be a whole number 0..56, not {bag!r}")
        entries = data.get("tiles")
        if not isinstance(entries, list):
            raise PositionError("\"tiles\" must be a list of {\"tile\", \"q\", \"r\", \"rot\"}")
        board = cls(bag)
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise PositionError(f"tiles[{i}] must be an object, not {entry!r}")
            values = []
            for name in ("tile", "q", "r", "rot"):
                value = entry.get(name)
                if not isinstance(value, int) or isinstance(value, bool):
                    raise PositionError(f"tiles[{i}].{name} must be a whole number, not {value!r}")
                values.append(value)
            tile, q, r, rot = values
            if not 1 <= tile <= 56:
                raise PositionError(f"tiles[{i}]: unknown tile {tile} (tiles are 1..56)")
            if not 0 <= rot <= 5:
                raise PositionError(f"tiles[{i}]: rot must be 0..5, not {rot}")
            if not -LIMIT < q < LIMIT or not -LIMIT < r < LIMIT:
                raise PositionError(f"tiles[{i}]: cell ({q}, {r}) is too far out")
            if tile in board._where:
                raise PositionError(f"tiles[{i}]: tile {tile} appears twice")
            if (q, r) in board:
                raise PositionError(f"tiles[{i}]: cell ({q}, {r}) holds two tiles")
            board.push(Placement(tile, q, r, rot))
        if len(board) + bag > 56:
            raise PositionError(f"{len(board)} tiles placed and {bag} in the bag make more than 56")
        breaks = board.golden_rule_breaks()
        if breaks:
            (a, b) = breaks[0]
            raise PositionError(f"the golden rule is broken between {a} and {b}: touching edges differ")
        return board

    def __repr__(self) -> str:
        return f"Board({len(self)} tiles, bag={self.bag})"


_STATUS = {Rule.DEAD_FORCED_SPACE: Status.DEAD_FORCED_SPACE, Rule.FOUR_NEIGHBOURS: Status.FOUR_NEIGHBOURS,
           Rule.CONTROLLED_SIDE: Status.CONTROLLED_SIDE}


def _dead_refusal(k: int, need: str) -> Refused:
    colour = next(c for c in need if c != ".")
    cells = (unkey(k),) + tuple(unkey(k + STEP[d]) for d in range(6) if need[d] != ".")
    return Refused(
        Rule.DEAD_FORCED_SPACE,
        f"it would leave a space surrounded by {colour} on three sides, which no tile can fill",
        cells,
    )


def _four_sided(placed: int, x: int, tile_at: dict[int, tuple[int, int]]) -> bool:
    """Whether four or more tiles would surround the empty ``x`` once ``placed`` is filled."""
    return sum(1 for s in STEP if x + s in tile_at or x + s == placed) >= 4


def _cascade_refusal(
    placed: int, x: int, times: dict[int, int], tile_at: dict[int, tuple[int, int]]
) -> Refused:
    """The refusal for the empty cell ``x`` where the cascade after a tile on ``placed`` fails:
    restriction 2 when four tiles would surround it, else restriction 3 (with the spaces whose
    filling leads there)."""
    around = [x + s for s in STEP]
    if _four_sided(placed, x, tile_at):
        return Refused(Rule.FOUR_NEIGHBOURS, "a space would have four or more neighbours", (unkey(x),))
    own = times.get(x, _NEVER)
    filled = sorted((times[n], n) for n in around if n in times and 0 < times[n] <= own)
    return Refused(
        Rule.CONTROLLED_SIDE,
        "it plays along a controlled side: filling the forced spaces would leave a space with four neighbours",
        (unkey(x),) + tuple(unkey(n) for _, n in filled),
    )

