"""A deliberately naive Tanagra rules implementation, written from the French rule sheet
(``/work/shared/seeds/004_*.txt``) and rules.md section 8, for differential tests.

It shares no code with ``engine.tanagra``. Its geometry is plain plane geometry: a lattice point is
``(i, j, k)`` with ``i + j + k == 0``; a cell (unit triangle) is the frozenset of its three corner
points; two cells touch when they share a side, i.e. two corner points. A piece (size-2 triangle) is
the frozenset of its three corners; its four cells are cut out by the midpoints of its sides, the
centre cell being the one made of the three midpoints ("un pion étant placé au centre des
triangles"). Every question rescans the whole position.

Only at its edges does it speak the engine's language: a cell is then named ``(a, b, c)`` by the
largest value each coordinate takes on its corners (README, "Coordinates": a cell is the set of
points whose coordinates round up to ``(a, b, c)``), and actions are plain tuples::

    ("place", centre, size)  ("move", origin, target)  ("pass",)
    ("leave",)  ("remove",)  ("relocate", centre)

Points the sheet leaves open follow the engine's documented choices (README, section Tanagra), each
marked ``CHOICE`` below, so that the comparison finds real disagreements rather than readings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

Point = tuple[int, int, int]
RCell = frozenset[Point]  # a unit triangle: its three corners
RPiece = frozenset[Point]  # a size-2 triangle: its three corners
ECell = tuple[int, int, int]  # a cell in the engine's naming
Kind = tuple[int, "str | None"]  # a pawn: owner seat, size ("small"/"big", 2 players only)
RAction = tuple[Any, ...]  # see the module docstring

UNIT = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))
"""The six unit steps between lattice points, in turning order (consecutive ones are 60 degrees
apart, so a point and two consecutive steps span a triangle)."""

# CHOICE: the first piece goes "in the middle": the engine names two sites (README).
FIRST_CENTRES: tuple[ECell, ECell] = ((0, 0, 1), (1, 1, 0))


def add(p: Point, d: Point, n: int = 1) -> Point:
    return (p[0] + n * d[0], p[1] + n * d[1], p[2] + n * d[2])


def mid(p: Point, q: Point) -> Point:
    return ((p[0] + q[0]) // 2, (p[1] + q[1]) // 2, (p[2] + q[2]) // 2)


@lru_cache(maxsize=None)
def engine_name(cell: RCell) -> ECell:
    a = max(p[0] for p in cell)
    b = max(p[1] for p in cell)
    c = max(p[2] for p in cell)
    return (a, b, c)


@lru_cache(maxsize=None)
def piece_cells(piece: RPiece) -> tuple[RCell, RCell, RCell, RCell]:
    """The four cells of a piece: three corner cells and the centre cell (last)."""
    a, b, c = sorted(piece)
    ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
    return (frozenset({a, ab, ca}), frozenset({b, ab, bc}), frozenset({c, bc, ca}), frozenset({ab, bc, ca}))


def centre(piece: RPiece) -> RCell:
    return piece_cells(piece)[3]


@lru_cache(maxsize=None)
def sides(cell: RCell) -> tuple[frozenset[Point], ...]:
    return tuple(frozenset(pair) for pair in combinations(cell, 2))


def touch(c1: RCell, c2: RCell) -> bool:
    """Two cells touch when they share a side (two corners): "par les cotés uniquement"."""
    return c1 != c2 and len(c1 & c2) == 2


def all_sides(pieces: set[RPiece]) -> set[frozenset[Point]]:
    """Every side of every cell of ``pieces``."""
    return {s for piece in pieces for cell in piece_cells(piece) for s in sides(cell)}


def piece_touches(piece: RPiece, other_sides: set[frozenset[Point]]) -> bool:
    """Whether some cell of ``piece`` shares a side with a cell whose sides are ``other_sides``."""
    return any(s in other_sides for cell in piece_cells(piece) for s in sides(cell))


@dataclass
class Reference:
    """A whole game: the table, the pawns, the reserve (pawns, hence triangles, still to place),
    whose turn, the phase (build, move, change, over), the emptied piece awaiting its fate."""

    players: int
    x: int
    quiet_rounds: int = 30
    pieces: set[RPiece] = field(default_factory=set)
    pawns: dict[RCell, Kind] = field(default_factory=dict)
    reserve: dict[Kind, int] = field(default_factory=dict)
    turn: int = 0
    phase: str = "build"
    pending: RPiece | None = None
    quiet: int = 0
    passes: int = 0
    result: tuple[int | None, str] | None = None
    _took: bool = False
    _legal: set[RAction] | None = None  # the answer of legal() until the next play()

    def __post_init__(self) -> None:
        for seat in range(self.players):
            if self.players == 2:
                # "L'un des joueurs prend x petits pions noirs et x grands pions noirs."
                # CHOICE: a triangle for each (every pawn starts on a triangle's centre).
                self.reserve[(seat, "small")] = self.x
                self.reserve[(seat, "big")] = self.x
            else:
                # "les joueurs prennent chacun x pions identiques et x triangles"
                self.reserve[(seat, None)] = self.x

    # ------------------------------------------------------------------ geometry of the table

    def cells(self, pieces: set[RPiece] | None = None) -> dict[RCell, RPiece]:
        """Every cell lying on a piece, with its piece."""
        out: dict[RCell, RPiece] = {}
        for piece in self.pieces if pieces is None else pieces:
            for cell in piece_cells(piece):
                out[cell] = piece
        return out

    def isolated(self) -> set[RPiece]:
        """"un triangle n'ayant aucune case en contact avec un autre triangle"."""
        return {p for p in self.pieces if not piece_touches(p, all_sides(self.pieces - {p}))}

    def sites(self, others: set[RPiece]) -> set[RPiece]:
        """Where a piece may go beside ``others``: "au moins une case en contact avec un ou
        plusieurs triangles déjà posés", overlapping none (a piece is a solid triangle)."""
        taken = set(self.cells(others))
        other_sides = all_sides(others)
        points = {p for o in others for p in o}
        lo = [min(p[n] for p in points) - 3 for n in range(3)]
        hi = [max(p[n] for p in points) + 3 for n in range(3)]
        found: set[RPiece] = set()
        for i in range(lo[0], hi[0] + 1):
            for j in range(lo[1], hi[1] + 1):
                k = -i - j
                if not lo[2] <= k <= hi[2]:
                    continue
                for n in range(6):
                    d1, d2 = UNIT[n], UNIT[(n + 1) % 6]
                    v = (i, j, k)
                    piece = frozenset({v, add(v, d1, 2), add(v, d2, 2)})
                    if piece in found:
                        continue
                    if any(cell in taken for cell in piece_cells(piece)):
                        continue
                    if piece_touches(piece, other_sides):
                        found.add(piece)
        return found

    # ------------------------------------------------------------------------ what may take what

    def takes(self, attacker: Kind, victim: Kind) -> bool:
        if self.players == 2:
            # "Noir prend les pions jaunes de la taille identique
            #  Jaune prend les pions noirs de la taille opposée" (seat 0 black: CHOICE)
            if attacker[0] == 0:
                return victim[0] == 1 and victim[1] == attacker[1]
            return victim[0] == 0 and victim[1] != attacker[1]
        # "On ne peut prendre que les pions du joueur se trouvant sur sa gauche"; rules.md:
        # the player on one's left is the next one in turn order.
        return victim[0] == (attacker[0] + 1) % self.players

    # ------------------------------------------------------------------------------ legal actions

    def legal(self) -> set[RAction]:
        if self._legal is None:
            self._legal = self._all_legal()
        return self._legal

    def _all_legal(self) -> set[RAction]:
        if self.phase == "over":
            return set()
        if self.phase == "build":
            return self._legal_places()
        if self.phase == "change":
            assert self.pending is not None
            others = self.pieces - {self.pending}
            out: set[RAction] = {("leave",), ("remove",)}
            for site in self.sites(others):
                if site != self.pending:  # CHOICE: putting it back is "leave"
                    out.add(("relocate", engine_name(centre(site))))
            return out
        moves = self._legal_moves()
        return moves if moves else {("pass",)}  # CHOICE: no move, pass

    def _legal_places(self) -> set[RAction]:
        kinds = [k for k, n in self.reserve.items() if k[0] == self.turn and n > 0]
        if not self.pieces:
            centres = set(FIRST_CENTRES)
        else:
            centres = {engine_name(centre(s)) for s in self.sites(self.pieces)}
        return {("place", c, k[1]) for c in centres for k in kinds}

    def destinations(self, origin: RCell) -> set[RCell]:
        cells = self.cells()
        mover = self.pawns[origin]
        near = [c for c in cells if touch(c, origin)]
        landing: set[RCell] = set(near)  # "vers l'une des cases contiguës"
        # "sautant par-dessus un ou plusieurs pions identiques situés sur des cases contiguës, vers
        # l'une des cases contiguës à l'un de ces pions": a chain of identical pawns on touching
        # cells, starting beside the mover (CHOICE: anyone's pawns; the mover is not one of them).
        for first in near:
            if first not in self.pawns:
                continue
            kind = self.pawns[first]
            chain = {first}
            grow = True
            while grow:
                grow = False
                for c, k in self.pawns.items():
                    if c != origin and c not in chain and k == kind and any(touch(c, m) for m in chain):
                        chain.add(c)
                        grow = True
            landing |= {c for c in cells if any(touch(c, m) for m in chain)}
        landing.discard(origin)
        # Land on an empty cell, or take: "Prendre un pion consiste à prendre sa place".
        return {c for c in landing if c not in self.pawns or self.takes(mover, self.pawns[c])}

    def _legal_moves(self) -> set[RAction]:
        out: set[RAction] = set()
        for origin, kind in list(self.pawns.items()):
            if kind[0] != self.turn:
                continue
            for target in self.destinations(origin):
                out.add(("move", engine_name(origin), engine_name(target)))
        return out

    # ----------------------------------------------------------------------------------- playing

    def by_name(self, name: ECell, cells: dict[RCell, RPiece] | None = None) -> RCell:
        for cell in self.cells() if cells is None else cells:
            if engine_name(cell) == name:
                return cell
        raise KeyError(name)

    def piece_by_centre(self, name: ECell, candidates: set[RPiece]) -> RPiece:
        for piece in candidates:
            if engine_name(centre(piece)) == name:
                return piece
        raise KeyError(name)

    def play(self, action: RAction) -> None:
        assert action in self.legal(), action
        self._legal = None
        tag = action[0]
        if tag == "place":
            site = self.piece_by_centre(
                action[1], self.sites(self.pieces) if self.pieces else self.first_sites()
            )
            self.pieces.add(site)
            kind = (self.turn, action[2])
            self.pawns[centre(site)] = kind
            self.reserve[kind] -= 1
            self.turn = (self.turn + 1) % self.players
            if not any(self.reserve.values()):
                self.phase = "move"
            return
        if tag == "move":
            cells = self.cells()
            origin, target = self.by_name(action[1], cells), self.by_name(action[2], cells)
            mover = self.pawns.pop(origin)
            victim = self.pawns.get(target)
            self.pawns[target] = mover
            self._took = victim is not None
            if victim is not None and self._lost_all(victim):
                # "Vous devez prendre tous les pions du joueur se trouvant sur votre gauche";
                # 2 players: "tous les pions d'une même forme". CHOICE: no board change then.
                self.quiet = 0
                self.passes = 0
                self._finish(self.turn, "size-taken" if self.players == 2 else "left-taken")
                return
            left = cells[origin]
            if cells[target] != left and not any(cells.get(c) == left for c in self.pawns):
                # "Quand un pion est déplacé d'un triangle vers un autre, le joueur peut disposer
                # du triangle abandonné s'il ne se trouve aucun pion dessus."
                self.pending = left
                self.phase = "change"
                return
            self._end_turn(removed=False)
            return
        if tag == "pass":
            self._took = False
            self.passes += 1
            self._end_turn(removed=False, passed=True)
            return
        assert self.pending is not None
        removed = False
        if tag == "remove":
            self.pieces.discard(self.pending)
            removed = True
        elif tag == "relocate":
            others = self.pieces - {self.pending}
            site = self.piece_by_centre(action[1], self.sites(others))
            self.pieces = others | {site}
        self.pending = None
        self.phase = "move"
        self._end_turn(removed=removed)

    def first_sites(self) -> set[RPiece]:
        out = set()
        for v in [(0, 0, 0), (1, 0, -1), (0, 1, -1), (1, 1, -2), (-1, 0, 1), (0, -1, 1), (-1, -1, 2)]:
            for n in range(6):
                out.add(frozenset({v, add(v, UNIT[n], 2), add(v, UNIT[(n + 1) % 6], 2)}))
        return {p for p in out if engine_name(centre(p)) in FIRST_CENTRES}

    def _lost_all(self, victim: Kind) -> bool:
        if self.players == 2:
            return not any(k == victim for k in self.pawns.values())
        return not any(k[0] == victim[0] for k in self.pawns.values())

    def _finish(self, winner: int | None, reason: str) -> None:
        self.result = (winner, reason)
        self.phase = "over"
        self.pending = None

    def _end_turn(self, removed: bool, passed: bool = False) -> None:
        if not passed:
            self.passes = 0
        self.quiet = 0 if (self._took or removed) else self.quiet + 1
        self._took = False
        iso = self.isolated()
        cells = self.cells()
        # "isoler tous les pions de tous les autres joueurs" (CHOICE: the mover first, then in
        # turn order; with 2 players too).
        for n in range(self.players):
            p = (self.turn + n) % self.players
            if all(cells[c] in iso for c, k in self.pawns.items() if k[0] != p):
                self._finish(p, "isolated")
                return
        if self.players > 2:
            # "Lorsque deux joueurs (...) ou trois joueurs (...) ne peuvent disposer en propre d'un
            # triangle, on considère que le joueur restant a gagné." CHOICE: holding a triangle of
            # one's own is having one bearing one's pawns and nobody else's.
            holders = self.holders()
            if len(holders) == 1:
                self._finish(holders.pop(), "last-holder")
                return
        if self.passes >= self.players:  # CHOICE: everyone passed in a row: a draw
            self._finish(None, "blocked")
            return
        if self.quiet >= self.quiet_rounds * self.players:  # CHOICE: so every game ends
            self._finish(None, "quiet")
            return
        self.turn = (self.turn + 1) % self.players

    # ------------------------------------------------------------------------------ what tests read

    def holders(self) -> set[int]:
        """The players holding a triangle of their own: one bearing their pawns and nobody else's."""
        cells = self.cells()
        owners: dict[RPiece, set[int]] = {}
        for c, k in self.pawns.items():
            owners.setdefault(cells[c], set()).add(k[0])
        return {next(iter(s)) for s in owners.values() if len(s) == 1}

    def isolated_centres(self) -> set[ECell]:
        return {engine_name(centre(p)) for p in self.isolated()}

    def piece_centres(self) -> set[ECell]:
        return {engine_name(centre(p)) for p in self.pieces}

    def pawn_names(self) -> dict[ECell, Kind]:
        return {engine_name(c): k for c, k in self.pawns.items()}
