"""Tanagra's rules: the position, the actions, and the one place that decides each rule.

A :class:`State` is a whole position: the pieces on the table, the pawns on their cells, the pawns
(and so the triangles) each player still has to place, whose turn it is and in which phase. Its
:meth:`State.check` says why an action is refused (an :class:`~engine.modes.Refused`: a :class:`Reason`
code and plain English), :meth:`State.apply` plays a legal one and :meth:`State.legal_actions` lists them all.

Phases and actions
------------------
* ``build``: the player to move puts a piece down with one of their pawns on its centre cell
  (:class:`Place`). With 3 or 4 players everyone has ``x`` pawns and ``x`` triangles; with 2
  players everyone has ``x`` small and ``x`` big pawns and one triangle per pawn, and names the
  size of the pawn they put down. A piece never overlaps another and, except the first (which goes
  in the middle, on one of ``FIRST_CENTRES``), has a cell sharing a side with a placed piece.
* ``move``: the player to move moves one of their pawns (:class:`Move`) to a touching cell, or jumps
  it over a chain of identical pawns to a cell touching one of them. Landing on a pawn the mover may
  take takes it. A player with no move at all passes (:class:`Pass`).
* ``change``: the move took a pawn from one piece to another and left the first one empty; the same
  player decides its fate: :class:`Leave` it, :class:`Relocate` it, or :class:`Remove` it for good.
* ``over``: :attr:`State.result` names the winner (or a draw) and why.

Choices where the rule sheet is silent (also in README, section Tanagra)
------------------------------------------------------------------------
* Seat 0 places first and, as everyone places the same number of pieces, also moves first.
  With 2 players seat 0 plays black and seat 1 yellow.
* The first piece goes in the middle (either orientation); after that the contact rule binds.
* Touching cells are cells sharing a side, whether or not they lie on the same piece: a pawn steps
  freely across the join between two pieces. A cell exists only where a piece lies.
* A jumped chain is a group of identical pawns (same player; with 2 players also same size) on
  cells touching one another, the first of them touching the mover; any player's pawns may form it
  (the mover's own ones too, the mover itself excepted). The pawn lands on any cell touching a pawn
  of the chain, which must be empty or hold a pawn the mover may take: a jump may end on a capture.
  The mover jumps over as many pawns of the chain as it likes, so it may also land on a pawn of the
  chain past the first one, when it may take it.
* What may take what (:meth:`State.takes`): with 3-4 players a pawn takes only pawns of the player
  on its owner's left, i.e. the next seat; with 2 players a black pawn takes yellow pawns of its own
  size and a yellow pawn takes black pawns of the other size.
* Only an empty piece can be moved or removed, so no pawn ever travels with a piece. A relocated
  piece must touch another piece and overlap none; putting it back where it was is just "leave".
* Ends, checked in this order: a capture that takes the last pawn of the mover's left neighbour (3-4
  players) or the opponent's last pawn of one size (2 players) wins at once, with no board change.
  At the end of every turn: a player all of whose opponents' pawns stand on isolated pieces wins
  (the mover is asked first, then the others in turn order); the isolation goal applies with 2
  players too, since a marooned opponent can never take again. With 3-4 players, when exactly one
  player still holds a piece of their own (a piece bearing their pawns and nobody else's: our
  reading of the sheet's "ne peuvent disposer en propre d'un triangle"), that player wins.
* A player with no legal move passes; when every player passes in a row, the game is drawn
  ("blocked"). So that every game ends, it is also drawn after ``quiet_rounds`` rounds (that many
  turns per player) without a capture or a removed piece; both are finite, so games are too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Iterable, Mapping, NamedTuple, Union

from ..actions import Refused
from .lattice import FIRST_CENTRES, Cell, is_cell, neighbours, piece_cells, touching_cells

X_CHOICES = range(4, 7)
"""``x``, the pawns (3-4 players) or pawns of each size (2 players) per player: the sheet's
"4, 5, 6...", as far as the box goes: its pawns come in series of 6, and its 24 triangles are
just enough for 4 players x 6, or 2 players x (6 small + 6 big)."""
DEFAULT_QUIET_ROUNDS = 30


class Size(StrEnum):
    """The two pawn sizes of the 2-player game."""

    SMALL = "small"
    BIG = "big"


class Pawn(NamedTuple):
    """A pawn: its owner's seat and, in the 2-player game only, its size. Equal pawns are the
    sheet's "identical" pawns."""

    owner: int
    size: Size | None = None


class Phase(StrEnum):
    BUILD = "build"
    MOVE = "move"
    CHANGE = "change"
    OVER = "over"


# --------------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Place:
    """Building: a piece centred on ``centre`` with a pawn (of ``size``, 2 players only) on it."""

    centre: Cell
    size: Size | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """Move the pawn on ``origin`` to ``target`` (a step or a jump; a capture if a pawn stands there)."""

    origin: Cell
    target: Cell

    @property
    def is_step(self) -> bool:
        """Whether the target touches the origin (else the move is a jump)."""
        return self.target in neighbours(self.origin)


@dataclass(frozen=True, slots=True)
class Pass:
    """A player with no legal move passes."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Board change: leave the emptied piece where it is."""


@dataclass(frozen=True, slots=True)
class Relocate:
    """Board change: pick the emptied piece up and put it down centred on ``centre``."""

    centre: Cell


@dataclass(frozen=True, slots=True)
class Remove:
    """Board change: take the emptied piece out of the game for good."""


Action = Union[Place, Move, Pass, Leave, Relocate, Remove]


class Reason(StrEnum):
    """Why an action is refused; the value is a stable code the UI may translate."""

    GAME_OVER = "game-over"
    WRONG_PHASE = "wrong-phase"
    BAD_CELL = "bad-cell"
    BAD_SIZE = "bad-size"
    NO_PAWN_LEFT = "no-pawn-left"
    FIRST_IN_MIDDLE = "first-in-middle"
    OVERLAP = "overlap"
    NO_CONTACT = "no-contact"
    SAME_PLACE = "same-place"
    NO_PAWN = "no-pawn"
    NOT_YOUR_PAWN = "not-your-pawn"
    OFF_BOARD = "off-board"
    OCCUPIED = "occupied"
    CANNOT_TAKE = "cannot-take"
    NOT_REACHABLE = "not-reachable"
    MUST_MOVE = "must-move"


class IllegalAction(Refused):
    """Raised by :meth:`State.apply` for an action the rules refuse: the engine's common
    :class:`~engine.modes.Refused` (a :class:`Reason` and a sentence), and the action."""

    def __init__(self, action: Action, refusal: Refused) -> None:
        super().__init__(refusal.rule, refusal.message, refusal.cells)
        self.action = action


class PositionError(ValueError):
    """A position or action (JSON) that is malformed or impossible."""


class EndReason(StrEnum):
    LEFT_TAKEN = "left-taken"  # 3-4 players: every pawn of the winner's left neighbour is taken
    SIZE_TAKEN = "size-taken"  # 2 players: every opponent pawn of one size is taken
    ISOLATED = "isolated"  # every pawn of every other player stands on an isolated piece
    LAST_HOLDER = "last-holder"  # 3-4 players: the only player still holding a piece of their own
    BLOCKED = "blocked"  # draw: every player passed in a row
    QUIET = "quiet"  # draw: quiet_rounds rounds without a capture or a removed piece


class Result(NamedTuple):
    """How a game ended: the winner's seat (None for a draw) and why."""

    winner: int | None
    reason: EndReason


@dataclass(frozen=True, slots=True)
class Options:
    """A game's settings: 2, 3 or 4 players, ``x`` (see :data:`X_CHOICES`), the quiet-round limit."""

    players: int = 3
    x: int = 4
    quiet_rounds: int = DEFAULT_QUIET_ROUNDS

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or self.players not in (2, 3, 4):
            raise PositionError(f"players must be 2, 3 or 4, not {self.players!r}")
        if not isinstance(self.x, int) or self.x not in X_CHOICES:
            raise PositionError(f"x must be one of {list(X_CHOICES)}, not {self.x!r}")
        if not isinstance(self.quiet_rounds, int) or self.quiet_rounds < 1:
            raise PositionError(f"quiet_rounds must be a positive integer, not {self.quiet_rounds!r}")

    @property
    def pieces_per_player(self) -> int:
        """One triangle per pawn: ``x`` with 3-4 players, ``2x`` (x small + x big) with 2."""
        return 2 * self.x if self.players == 2 else self.x

    def starting_pawns(self, seat: int) -> dict[Pawn, int]:
        """The pawns ``seat`` starts with, by kind."""
        if self.players == 2:
            return {Pawn(seat, Size.SMALL): self.x, Pawn(seat, Size.BIG): self.x}
        return {Pawn(seat): self.x}

    def to_json(self) -> dict[str, int]:
        return {"players": self.players, "x": self.x, "quiet_rounds": self.quiet_rounds}

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if not isinstance(data, Mapping):
            raise PositionError("options must be an object")
        unknown = set(data) - {"players", "x", "quiet_rounds"}
        if unknown:
            raise PositionError(f"unknown option {sorted(unknown)[0]!r}")
        return cls(
            players=data.get("players", 3),
            x=data.get("x", 4),
            quiet_rounds=data.get("quiet_rounds", DEFAULT_QUIET_ROUNDS),
        )


@lru_cache(maxsize=None)
def victims_table(players: int) -> dict[Pawn, frozenset[Pawn]]:
    """For every pawn kind, the kinds it may take (see :meth:`State.takes`)."""
    if players == 2:
        other = {Size.SMALL: Size.BIG, Size.BIG: Size.SMALL}
        return {
            Pawn(0, size): frozenset({Pawn(1, size)}) for size in Size
        } | {Pawn(1, size): frozenset({Pawn(0, other[size])}) for size in Size}
    return {Pawn(seat): frozenset({Pawn((seat + 1) % players)}) for seat in range(players)}


# ----------------------------------------------------------------------------------- state


class State:
    """A whole Tanagra position and the rules that act on it.

    ``cover`` maps every cell lying on a piece to that piece's centre; ``pawns`` maps occupied
    cells to their pawns; ``reserve`` counts the pawns (hence the pieces) still to be placed, by
    kind. ``pending`` is the emptied piece (its centre) awaiting a board change in phase ``change``.
    ``quiet`` counts moves and passes since the last capture or removed piece.
    """

    __slots__ = (
        "options", "cover", "pawns", "reserve", "turn", "phase", "pending", "quiet", "passes",
        "result", "_victims", "_islands",
    )

    def __init__(self, options: Options | None = None) -> None:
        """The start of a game: empty table, every player's pawns in reserve, seat 0 to place."""
        self.options = options if options is not None else Options()
        self.cover: dict[Cell, Cell] = {}
        self.pawns: dict[Cell, Pawn] = {}
        self.reserve: dict[Pawn, int] = {
            kind: n for seat in range(self.options.players)
            for kind, n in self.options.starting_pawns(seat).items()
        }
        self.turn = 0
        self.phase = Phase.BUILD
        self.pending: Cell | None = None
        self.quiet = 0
        self.passes = 0
        self.result: Result | None = None
        self._victims = victims_table(self.options.players)
        self._islands: frozenset[Cell] | None = None  # cache of isolated_pieces(), per table

    @classmethod
    def position(
        cls,
        options: Options,
        pieces: Iterable[Cell],
        pawns: Mapping[Cell, Pawn],
        turn: int = 0,
    ) -> State:
        """A move-phase position built by hand (puzzles, tests): pieces by centre, pawns by cell.
        Raises :class:`PositionError` when pieces overlap or a pawn is off the board."""
        return cls.from_json({
            "options": options.to_json(),
            "pieces": [list(c) for c in pieces],
            "pawns": [_pawn_json(cell, pawn) for cell, pawn in pawns.items()],
            "turn": turn,
            "phase": Phase.MOVE.value,
        })

    def copy(self) -> State:
        new = State.__new__(State)
        new.options = self.options
        new.cover = self.cover.copy()
        new.pawns = self.pawns.copy()
        new.reserve = self.reserve.copy()
        new.turn = self.turn
        new.phase = self.phase
        new.pending = self.pending
        new.quiet = self.quiet
        new.passes = self.passes
        new.result = self.result
        new._victims = self._victims
        new._islands = self._islands
        return new

    # ------------------------------------------------------------------ reading the position

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def pieces(self) -> list[Cell]:
        """The centres of the pieces on the table, sorted."""
        return sorted(set(self.cover.values()))

    def piece_at(self, cell: Cell) -> Cell | None:
        """The centre of the piece lying on ``cell``, or None off the board."""
        return self.cover.get(cell)

    def left_of(self, seat: int) -> int:
        """The player on ``seat``'s left: the next seat clockwise, whose pawns ``seat`` takes."""
        return (seat + 1) % self.options.players

    def takes(self, attacker: Pawn, victim: Pawn) -> bool:
        """Whether ``attacker`` may take ``victim`` (the capture rules, in one place)."""
        return victim in self._victims[attacker]

    def victims(self, attacker: Pawn) -> frozenset[Pawn]:
        """The kinds of pawn ``attacker`` may take."""
        return self._victims[attacker]

    def pawn_count(self, owner: int, size: Size | None = None) -> int:
        """Pawns of ``owner`` (of ``size`` if given) still on the board."""
        return sum(
            1 for p in self.pawns.values() if p.owner == owner and (size is None or p.size == size)
        )

    def in_reserve(self, seat: int) -> dict[Pawn, int]:
        """The pawns ``seat`` still has to place, by kind (empty after building)."""
        return {k: n for k, n in self.reserve.items() if k.owner == seat and n}

    def pawns_on(self, centre: Cell) -> list[tuple[Cell, Pawn]]:
        """The pawns standing on the piece with this centre."""
        return [(c, self.pawns[c]) for c in piece_cells(centre) if c in self.pawns]

    def isolated_pieces(self) -> frozenset[Cell]:
        """Centres of the pieces none of whose cells shares a side with a cell of another piece.

        It depends on the table alone, so it is kept until a piece is put down or lifted (and
        shared by copies), which makes the end-of-turn isolation check nearly free."""
        if self._islands is None:
            cover = self.cover
            joined = {
                centre for cell, centre in cover.items()
                for n in neighbours(cell) if cover.get(n, centre) != centre
            }
            self._islands = frozenset(set(cover.values()) - joined)
        return self._islands

    def owners_by_piece(self) -> dict[Cell, set[int]]:
        """For every piece bearing pawns, the players whose pawns stand on it."""
        owners: dict[Cell, set[int]] = {}
        cover = self.cover
        for cell, pawn in self.pawns.items():
            owners.setdefault(cover[cell], set()).add(pawn.owner)
        return owners

    def holders(self) -> set[int]:
        """Players holding a piece of their own: one bearing their pawns and nobody else's."""
        return {min(o) for o in self.owners_by_piece().values() if len(o) == 1}

    # ---------------------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a stable order."""
        if self.phase is Phase.BUILD:
            sizes = sorted(
                (k.size for k, n in self.reserve.items() if k.owner == self.turn and n),
                key=lambda s: (s is not None, s),
            )
            return [Place(c, s) for c in self.placements() for s in sizes]
        if self.phase is Phase.MOVE:
            moves = sorted(self.moves(), key=lambda m: (m.origin, m.target))
            return list(moves) if moves else [Pass()]
        if self.phase is Phase.CHANGE:
            assert self.pending is not None
            return [Leave(), Remove(), *(Relocate(c) for c in self.placements(lifted=self.pending))]
        return []

    def placements(self, lifted: Cell | None = None) -> list[Cell]:
        """Centres where a new piece (or the piece ``lifted`` from the table) may go, sorted."""
        cover = self.cover
        if lifted is not None:
            cover = {c: p for c, p in cover.items() if p != lifted}
        if not cover:
            return sorted(FIRST_CENTRES)
        candidates: set[Cell] = set()
        for n in touching_cells(cover):
            candidates.update(piece_cells(n))  # the pieces covering n: see piece_cells
        return sorted(
            c for c in candidates
            if c != lifted and not any(x in cover for x in piece_cells(c))
        )

    def moves(self) -> list[Move]:
        """Every move of the player to move (empty outside the move phase)."""
        if self.phase is not Phase.MOVE:
            return []
        turn = self.turn
        return [
            Move(origin, target)
            for origin, pawn in list(self.pawns.items()) if pawn.owner == turn
            for target in self.destinations(origin)
        ]

    def moves_from(self, origin: Cell) -> list[Move]:
        """The legal moves of the pawn on ``origin`` (for highlighting a selected pawn)."""
        pawn = self.pawns.get(origin)
        if self.phase is not Phase.MOVE or pawn is None or pawn.owner != self.turn:
            return []
        return [Move(origin, t) for t in sorted(self.destinations(origin))]

    def destinations(self, origin: Cell) -> set[Cell]:
        """Cells the pawn on ``origin`` can reach: touching cells, and cells touching a chain of
        identical pawns that touches it; each empty or holding a pawn it may take.

        The chains starting next to ``origin`` are found as whole groups of identical pawns (not
        path by path): any pawn of a group is the end of some path from its first pawn, so the
        cells touching the group are exactly the cells some chain of it can reach."""
        pawns, cover = self.pawns, self.cover
        mover = pawns[origin]
        victims = self._victims[mover]
        found: set[Cell] = set()
        jumped: set[Cell] = set()
        for n in neighbours(origin):
            if n not in cover:
                continue
            other = pawns.get(n)
            if other is None:
                found.add(n)
                continue
            if other in victims:
                found.add(n)
            if n in jumped:
                continue
            chain = {n}
            todo = [n]
            while todo:
                for m in neighbours(todo.pop()):
                    if m not in chain and m != origin and pawns.get(m) == other:
                        chain.add(m)
                        todo.append(m)
            jumped |= chain
            for c in chain:
                for m in neighbours(c):
                    if m == origin or m not in cover:
                        continue
                    there = pawns.get(m)
                    if there is None or there in victims:
                        found.add(m)
        return found

    # ----------------------------------------------------------------------- the referee

    def check(self, action: Action) -> Refused | None:
        """None when ``action`` is legal now, else the rule it breaks."""
        if self.phase is Phase.OVER:
            return Refused(Reason.GAME_OVER, "the game is over")
        expected = {
            Phase.BUILD: (Place,), Phase.MOVE: (Move, Pass), Phase.CHANGE: (Leave, Relocate, Remove)
        }[self.phase]
        if not isinstance(action, expected):
            return Refused(Reason.WRONG_PHASE, _PHASE_HELP[self.phase])
        if isinstance(action, Place):
            return self._check_place(action)
        if isinstance(action, Move):
            return self._check_move(action)
        if isinstance(action, Pass):
            if self.moves():
                return Refused(Reason.MUST_MOVE, "you can move a pawn, so you may not pass")
            return None
        if isinstance(action, Relocate):
            return self._check_site(action.centre, lifted=self.pending)
        return None

    def _check_place(self, action: Place) -> Refused | None:
        if self.options.players == 2:
            if action.size not in (Size.SMALL, Size.BIG):
                return Refused(Reason.BAD_SIZE, "name the pawn to put down: small or big")
        elif action.size is not None:
            return Refused(Reason.BAD_SIZE, "pawns have no size with 3 or 4 players")
        if not self.reserve.get(Pawn(self.turn, action.size)):
            kind = "" if action.size is None else f"{action.size} "
            return Refused(Reason.NO_PAWN_LEFT, f"you have no {kind}pawn left to put down")
        return self._check_site(action.centre, lifted=None)

    def _check_site(self, centre: Cell, lifted: Cell | None) -> Refused | None:
        """Where a piece may go, when placed or relocated (``lifted``: the piece being moved)."""
        if not is_cell(centre):
            return Refused(Reason.BAD_CELL, f"{centre!r} is not a cell")
        if centre == lifted:
            return Refused(Reason.SAME_PLACE, "that is where the piece already lies: leave it instead")
        cover = self.cover
        others = [c for c in cover if cover[c] != lifted]
        if not others:
            if centre in FIRST_CENTRES:
                return None
            return Refused(Reason.FIRST_IN_MIDDLE, "the first triangle goes in the middle of the table")
        cells = piece_cells(centre)
        if any(c in cover and cover[c] != lifted for c in cells):
            return Refused(Reason.OVERLAP, "the triangle would lie on top of another one")
        for c in cells:
            for n in neighbours(c):
                other = cover.get(n)
                if other is not None and other != lifted:
                    return None
        return Refused(
            Reason.NO_CONTACT, "the triangle must have a cell sharing a side with a placed triangle"
        )

    def _check_move(self, move: Move) -> Refused | None:
        for cell in (move.origin, move.target):
            if not is_cell(cell):
                return Refused(Reason.BAD_CELL, f"{cell!r} is not a cell")
        pawn = self.pawns.get(move.origin)
        if pawn is None:
            return Refused(Reason.NO_PAWN, "there is no pawn on that cell")
        if pawn.owner != self.turn:
            return Refused(Reason.NOT_YOUR_PAWN, "that pawn is not yours")
        if move.target not in self.cover:
            return Refused(Reason.OFF_BOARD, "there is no triangle under that cell")
        there = self.pawns.get(move.target)
        if there is not None and not self.takes(pawn, there):
            if there.owner == pawn.owner:
                return Refused(Reason.OCCUPIED, "one of your own pawns stands there")
            return Refused(Reason.CANNOT_TAKE, self._capture_help(pawn))
        if move.target not in self.destinations(move.origin):
            return Refused(
                Reason.NOT_REACHABLE,
                "a pawn moves to a touching cell, or jumps over a chain of identical pawns to a "
                "cell touching one of them",
            )
        return None

    def _capture_help(self, pawn: Pawn) -> str:
        if self.options.players == 2:
            if pawn.owner == 0:
                return f"a {pawn.size} black pawn takes only {pawn.size} yellow pawns"
            other = Size.BIG if pawn.size is Size.SMALL else Size.SMALL
            return f"a {pawn.size} yellow pawn takes only {other} black pawns"
        return (
            f"you may take only the pawns of the player on your left "
            f"(seat {self.left_of(pawn.owner)})"
        )

    def apply(self, action: Action) -> None:
        """Play ``action``; raises :class:`IllegalAction` (nothing changes) if the rules refuse it."""
        refusal = self.check(action)
        if refusal is not None:
            raise IllegalAction(action, refusal)
        self.play(action)

    def play(self, action: Action) -> None:
        """Play an action known to be legal (robots' searches: skips :meth:`check`)."""
        if isinstance(action, Move):
            self._move(action)
        elif isinstance(action, Place):
            self._place(action)
        elif isinstance(action, Leave):
            self._end_turn()
        elif isinstance(action, Remove):
            self._lift(self.pending)
            self.quiet = 0
            self._end_turn()
        elif isinstance(action, Relocate):
            self._lift(self.pending)
            self._put(action.centre)
            self._end_turn()
        elif isinstance(action, Pass):
            self.passes += 1
            self.quiet += 1
            if self.passes >= self.options.players:
                self._finish(None, EndReason.BLOCKED)
            else:
                self._end_turn()

    def _put(self, centre: Cell) -> None:
        for c in piece_cells(centre):
            self.cover[c] = centre
        self._islands = None

    def _lift(self, centre: Cell | None) -> None:
        assert centre is not None
        for c in piece_cells(centre):
            del self.cover[c]
        self._islands = None

    def _place(self, action: Place) -> None:
        self._put(action.centre)
        kind = Pawn(self.turn, action.size)
        self.pawns[action.centre] = kind
        self.reserve[kind] -= 1
        players = self.options.players
        for step in range(1, players + 1):
            seat = (self.turn + step) % players
            if any(n for k, n in self.reserve.items() if k.owner == seat):
                self.turn = seat
                return
        self.turn = self.left_of(self.turn)
        self.phase = Phase.MOVE

    def _move(self, move: Move) -> None:
        pawns = self.pawns
        mover = pawns.pop(move.origin)
        victim = pawns.get(move.target)
        pawns[move.target] = mover
        self.passes = 0
        if victim is None:
            self.quiet += 1
        else:
            self.quiet = 0
            if self.options.players == 2:
                if not any(p == victim for p in pawns.values()):
                    self._finish(mover.owner, EndReason.SIZE_TAKEN)
                    return
            elif not any(p.owner == victim.owner for p in pawns.values()):
                self._finish(mover.owner, EndReason.LEFT_TAKEN)
                return
        left = self.cover[move.origin]
        if left != self.cover[move.target] and not any(c in pawns for c in piece_cells(left)):
            self.phase = Phase.CHANGE
            self.pending = left
            return
        self._end_turn()

    def _end_turn(self) -> None:
        """After a move and its board change: the end-of-turn goals, the quiet limit, next player."""
        self.phase = Phase.MOVE
        self.pending = None
        winner = self._goal_reached()
        if winner is not None:
            self._finish(*winner)
        elif self.quiet >= self.options.quiet_rounds * self.options.players:
            self._finish(None, EndReason.QUIET)
        else:
            self.turn = self.left_of(self.turn)

    def _goal_reached(self) -> tuple[int, EndReason] | None:
        players = self.options.players
        islands = self.isolated_pieces()
        cover = self.cover
        connected = {p.owner for c, p in self.pawns.items() if cover[c] not in islands}
        for step in range(players):
            seat = (self.turn + step) % players
            if not connected - {seat}:
                return (seat, EndReason.ISOLATED)
        if players > 2:
            holders = self.holders()
            if len(holders) == 1:
                return (holders.pop(), EndReason.LAST_HOLDER)
        return None

    def _finish(self, winner: int | None, reason: EndReason) -> None:
        self.phase = Phase.OVER
        self.pending = None
        self.result = Result(winner, reason)

    # ------------------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The whole position as JSON-able data (round-trips through :meth:`from_json`)."""
        return {
            "options": self.options.to_json(),
            "pieces": [list(c) for c in self.pieces()],
            "pawns": [_pawn_json(c, self.pawns[c]) for c in sorted(self.pawns)],
            "reserve": [
                {"owner": k.owner, "size": k.size, "count": n}
                for k, n in sorted(self.reserve.items(), key=lambda kn: (kn[0].owner, str(kn[0].size)))
                if n
            ],
            "turn": self.turn,
            "phase": self.phase.value,
            "pending": None if self.pending is None else list(self.pending),
            "quiet": self.quiet,
            "passes": self.passes,
            "result": None if self.result is None else {
                "winner": self.result.winner, "reason": self.result.reason.value
            },
        }

    @classmethod
    def from_json(cls, data: Any) -> State:
        """A position from :meth:`to_json` data; raises :class:`PositionError` naming the problem."""
        if not isinstance(data, Mapping):
            raise PositionError("a position must be an object")
        state = cls(Options.from_json(data.get("options", {})))
        players = state.options.players
        for item in _list(data, "pieces"):
            centre = parse_cell(item, "pieces")
            clash = [c for c in piece_cells(centre) if c in state.cover]
            if clash:
                raise PositionError(f"piece {list(centre)} overlaps piece {list(state.cover[clash[0]])}")
            state._put(centre)
        for item in _list(data, "pawns"):
            if not isinstance(item, Mapping):
                raise PositionError("each pawn must be an object")
            cell = parse_cell(item.get("cell"), "pawn cell")
            pawn = parse_pawn(item, players)
            if cell not in state.cover:
                raise PositionError(f"pawn on {list(cell)} stands off the board")
            if cell in state.pawns:
                raise PositionError(f"two pawns on {list(cell)}")
            state.pawns[cell] = pawn
        state.reserve = {k: 0 for k in state.reserve}
        for item in _list(data, "reserve"):
            if not isinstance(item, Mapping):
                raise PositionError("each reserve entry must be an object")
            count = item.get("count")
            if not isinstance(count, int) or count < 0:
                raise PositionError(f"reserve count must be a non-negative integer, not {count!r}")
            state.reserve[parse_pawn(item, players)] = count
        turn = data.get("turn", 0)
        if not isinstance(turn, int) or not 0 <= turn < players:
            raise PositionError(f"turn must be a seat 0..{players - 1}, not {turn!r}")
        state.turn = turn
        try:
            state.phase = Phase(data.get("phase", Phase.BUILD.value))
        except ValueError:
            raise PositionError(f"unknown phase {data.get('phase')!r}") from None
        for name in ("quiet", "passes"):
            value = data.get(name, 0)
            if not isinstance(value, int) or value < 0:
                raise PositionError(f"{name} must be a non-negative integer, not {value!r}")
            setattr(state, name, value)
        if data.get("pending") is not None:
            pending = parse_cell(data["pending"], "pending")
            if state.cover.get(pending) != pending or state.pawns_on(pending):
                raise PositionError(f"pending {list(pending)} is not an empty piece on the table")
            state.pending = pending
        if (state.phase is Phase.CHANGE) != (state.pending is not None):
            raise PositionError("a pending piece goes with phase 'change', and only with it")
        if state.phase is Phase.BUILD and not state.in_reserve(turn):
            raise PositionError(f"seat {turn} is to place a piece but has no pawn left")
        if state.phase in (Phase.MOVE, Phase.CHANGE) and any(state.reserve.values()):
            raise PositionError("pawns are still in reserve, so building is not over")
        result = data.get("result")
        if (result is not None) != (state.phase is Phase.OVER):
            raise PositionError("a result goes with phase 'over', and only with it")
        if result is not None:
            winner = result.get("winner") if isinstance(result, Mapping) else None
            if winner is not None and (not isinstance(winner, int) or not 0 <= winner < players):
                raise PositionError(f"result winner must be a seat or null, not {winner!r}")
            try:
                state.result = Result(winner, EndReason(result.get("reason")))
            except ValueError:
                raise PositionError(f"unknown end reason {result.get('reason')!r}") from None
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


_PHASE_HELP = {
    Phase.BUILD: "the table is being built: put down a triangle with one of your pawns",
    Phase.MOVE: "move one of your pawns (or pass if none can move)",
    Phase.CHANGE: "first decide what to do with the triangle you emptied: leave, move or remove it",
}


# --------------------------------------------------------------------------- JSON helpers


def _list(data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise PositionError(f"{name} must be a list")
    return value


def parse_cell(value: Any, what: str) -> Cell:
    """``[a, b, c]`` -> a cell; raises :class:`PositionError` when it is not one."""
    cell = tuple(value) if isinstance(value, list) else value
    if not is_cell(cell):
        raise PositionError(f"{what}: {value!r} is not a cell (three integers summing to 1 or 2)")
    return cell


def parse_pawn(item: Mapping[str, Any], players: int) -> Pawn:
    owner, size = item.get("owner"), item.get("size")
    if not isinstance(owner, int) or not 0 <= owner < players:
        raise PositionError(f"pawn owner must be a seat 0..{players - 1}, not {owner!r}")
    if players == 2:
        if size not in ("small", "big"):
            raise PositionError(f"a 2-player pawn is 'small' or 'big', not {size!r}")
        return Pawn(owner, Size(size))
    if size is not None:
        raise PositionError("pawns have no size with 3 or 4 players")
    return Pawn(owner)


def _pawn_json(cell: Cell, pawn: Pawn) -> dict[str, Any]:
    return {"cell": list(cell), "owner": pawn.owner, "size": pawn.size}


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as JSON: ``{"type": "move", "from": [a,b,c], "to": [a,b,c]}`` and the like."""
    if isinstance(action, Place):
        out: dict[str, Any] = {"type": "place", "centre": list(action.centre)}
        if action.size is not None:
            out["size"] = action.size.value
        return out
    if isinstance(action, Move):
        return {"type": "move", "from": list(action.origin), "to": list(action.target)}
    if isinstance(action, Relocate):
        return {"type": "relocate", "centre": list(action.centre)}
    return {"type": _SIMPLE_NAMES[type(action)]}


_SIMPLE: dict[str, type[Pass] | type[Leave] | type[Remove]] = {"pass": Pass, "leave": Leave, "remove": Remove}
_SIMPLE_NAMES = {cls: name for name, cls in _SIMPLE.items()}


def action_from_json(data: Any) -> Action:
    """The inverse of :func:`action_to_json`; raises :class:`PositionError` on malformed data."""
    if not isinstance(data, Mapping):
        raise PositionError("an action must be an object")
    kind = data.get("type")
    if kind == "place":
        size = data.get("size")
        if size is not None and size not in ("small", "big"):
            raise PositionError(f"size must be 'small' or 'big', not {size!r}")
        return Place(parse_cell(data.get("centre"), "centre"), None if size is None else Size(size))
    if kind == "move":
        return Move(parse_cell(data.get("from"), "from"), parse_cell(data.get("to"), "to"))
    if kind == "relocate":
        return Relocate(parse_cell(data.get("centre"), "centre"))
    if kind in _SIMPLE:
        return _SIMPLE[kind]()
    raise PositionError(f"unknown action type {kind!r}")
