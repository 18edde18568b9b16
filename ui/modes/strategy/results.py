"""The end of a strategy game: the scores per colour, the winning line or loop traced on the final
position (tap a colour's row to trace its best line instead), a draw shown as a draw, and the game
replayed placement by placement: each step re-fits the board of that step, marks the tile just
placed (a forced fill tagged "Forced"), and the replay can play itself.

The record kept in the store is the engine's (``StrategyGame.record()``, which
``engine.strategy.record.replay`` re-validates) with ``"robots": {level: "won" | "lost" | "drawn"}`` added
for the staff menu's robot statistics.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from engine.board import Board, Placement
from engine.board import Line as ChainLine
from engine.strategy.game import StrategyGame, lost_on_time, robots_at

from ...board import BoardView
from ...i18n import N_, _
from ...qr import add_take_home
from ...results import ResultsScreen, Standing, StepMark, Words
from ... import theme
from ...words import seat_name, team_name
from ...shell import Shell
from .board import LineMarks, best_line, score_words

KIND = "strategy"
REASONS = {
    "all-placed": N_("All the tiles are placed."),
    "first-out": N_("A player has placed their last tile: the game ends."),
    "deadlock": N_("Nobody could make a free move: the game ends in a draw."),
}
OUTCOME_ORDER = ("lost", "drawn", "won")


def robot_outcomes(game: StrategyGame) -> dict[str, str]:
    """Each robot level at the table and how it did: "won", "lost" or "drawn" (first with others:
    a draw), by the game's places; a level playing two seats counts its better result."""
    result = game.result
    outcomes: dict[str, str] = {}
    place = game.places() if result is not None else {}
    for seat in game.seats:
        if seat.robot is None or result is None:
            continue
        outcome = "lost" if place[seat.colour] > 1 else "won" if seat.colour == result.winner else "drawn"
        known = outcomes.get(seat.robot)
        if known is None or OUTCOME_ORDER.index(outcome) > OUTCOME_ORDER.index(known):
            outcomes[seat.robot] = outcome
    return outcomes


def finished_record(game: StrategyGame) -> dict[str, Any]:
    """What the store keeps of a finished game: its record, and the robots' results."""
    return {**game.record(), "robots": robot_outcomes(game)}


def winning_lines(game: StrategyGame) -> list[ChainLine]:
    """The line or loop that decided the game: the winner's, or in a draw each top scorer's among
    those placed first (never the line of one who lost on time)."""
    result = game.result
    scores = result.scores if result is not None else game.scores()
    if result is not None and result.winner is not None:
        leaders = [result.winner]
    else:
        first = [c for c, place in game.places().items() if place == 1] if result is not None else list(scores)
        top = max((scores[c] for c in first), default=0)
        leaders = [c for c in first if scores[c] == top and top > 0]
    return [line for line in (best_line(game.board, c) for c in leaders) if line is not None]


def ranking(game: StrategyGame) -> list[str]:
    """The finished game's colours, best place first (as the standings list them), the better score
    first within a place."""
    assert game.result is not None
    scores, place = game.result.scores, game.places()
    return sorted(scores, key=lambda c: (place[c], -scores[c]))


def standings(game: StrategyGame) -> list[Standing]:
    """One row per colour of the finished game, best first, at the places the rules give
    (:func:`engine.strategy.game.places`: equal scores share one, a loss on time is last); its
    points, with in brackets what time penalties took off or gave (with two sides), then how the
    board scores them: "6 points (-1) / line 7" (a bare 6 for a line of 7 puzzles the player)."""
    assert game.result is not None
    scores, place = game.result.scores, game.places()
    rows = []
    for colour in ranking(game):
        words, late = score_words(game.board, colour), _time(game, colour)
        detail = (_("{points} points ({time})\n{score}", points=scores[colour], time=format(late, "+d"), score=words) if late
                  else _("{points} points\n{score}", points=scores[colour], score=words))
        rows.append(Standing(place[colour], team_name(game, colour), theme.LINK[colour], detail))
    return rows


def time_note(game: StrategyGame) -> str | None:
    """The note under the standings when time penalties changed points (None otherwise): what the
    brackets mean. It takes the place of the hint to tap a colour (four rows leave room for one note)."""
    assert game.result is not None
    return _("In brackets: time penalties.") if any(_time(game, colour) for colour in game.result.scores) else None


def _time(game: StrategyGame, colour: str) -> int:
    """What time penalties took off ``colour``'s points (negative) or gave it, in a finished game."""
    assert game.result is not None
    return game.result.scores[colour] - game.board.score(colour)


def results_words(game: StrategyGame) -> Words:
    """What the results of the finished ``game`` say, in the current language."""
    result = game.result
    assert result is not None
    if result.winner is not None:
        headline = _("{name} wins!", name=team_name(game, result.winner))
    else:
        headline = _("A draw")
    out = lost_on_time(game.record())
    if out is not None:
        headline += "\n" + _("{name} ran out of time and loses.", name=team_name(game, out))
    else:
        headline += "\n" + _(REASONS.get(result.reason, result.reason))
    return Words(_("Game over"), headline, standings(game), [time_note(game) or _("Tap a colour to trace its best line.")])


def show_results(app: Shell, game: StrategyGame, again: Callable[[], None] | None,
                 back: tuple[str, Callable[[], None]] | None = None,
                 names: Sequence[str | None] = ()) -> ResultsScreen:
    """The results screen of a finished ``game``; ``again`` starts another one like it; ``back``
    (label, action) replaces Home (a tournament's game leads back to the tournament); ``names``,
    the people's at the seats (:func:`ui.seat_players.seated_names`), say in the replay whose
    tile each was."""
    result = game.result
    assert result is not None
    view = BoardView(show_frontier=False)
    view.show(game.board)
    marks = LineMarks(view)
    lines = winning_lines(game)
    replay = StrategyReplay(view, marks, game, lines, names)
    colours = ranking(game)
    people_won = result.winner is not None and any(
        s.robot is None and s.colour == result.winner for s in game.seats)
    screen = ResultsScreen(
        KIND, lambda: results_words(game), stage=view, replay=replay, celebrate=people_won, on_again=again,
        on_home=back[1] if back is not None else app.go_home, on_pick=lambda index: trace(screen, replay, colours, index))
    screen.marks = marks
    if back is not None:
        screen.home_button.msg = back[0]
    screen.select([colours.index(line.colour) for line in lines])
    add_take_home(screen, game.record(), app.services.settings.replay_url)
    app.show(screen)
    return screen


def trace(screen: ResultsScreen, replay: StrategyReplay, colours: list[str], index: int) -> None:
    """Trace the best line of the colour on row ``index`` on the final position."""
    line = best_line(replay.final, colours[index])
    replay.lines = [line] if line is not None else []
    screen.select([index])
    bar = screen.replay_bar
    if bar is not None and bar.step != replay.steps:
        bar.go("last")
    elif bar is not None:
        bar.refresh()
    else:
        replay.show(replay.steps)


class StrategyReplay:
    """A finished game's placements, one step each, from its record. Each step draws the board of
    that step fitted to the stage (the first tile large and centred) and marks the tile just placed;
    the last step traces :attr:`lines` again. Each step says who placed its tile: the player by
    name where one was picked at setup ("Ana placed a tile": in Doubles the team's name alone
    left its two partners guessing), else the seat's side; a robot's step names the robot as
    the game did ("Red team (robot)"), a seat taken over after its person left too."""

    def __init__(self, view: BoardView, marks: LineMarks, game: StrategyGame, lines: list[ChainLine],
                 names: Sequence[str | None] = ()) -> None:
        self.view, self.marks, self.lines, self.names = view, marks, lines, names
        self.final = game.board
        record = game.record()
        start = record.get("start")
        self.first = Board.from_json(start["position"]) if start else Board()
        self.moves: list[tuple[int, Placement, bool]] = [
            (e["place"], Placement(e["tile"], e["q"], e["r"], e["rot"]), bool(e.get("forced")))
            for e in record["events"] if "place" in e
        ]
        self.by_robot = [robots_at(record, index)[e["place"]] is not None
                         for index, e in enumerate(record["events"]) if "place" in e]
        """Per step, whether a robot placed its tile (the seat set up for one, or taken over by one
        after its person left): that step is the robot's, not the person's."""
        self.game = game
        self.step_mark = StepMark(view)
        view.bind(pos=self._fit_stage, size=self._fit_stage)

    @property
    def steps(self) -> int:
        return len(self.moves)

    def fit(self, animate: bool = True) -> None:
        """Fit the board shown (its tiles and forced spaces) to the stage."""
        board = self.view.board
        self.view.recentre(animate, [p.cell for p in board.placements()] + [f.cell for f in board.forced_spaces()])

    def _fit_stage(self, view: BoardView, *_args: Any) -> None:
        """The stage moved or changed size: fit the board a little inside it, so no tile or mark
        touches its edge."""
        margin = theme.unit() * 0.3
        view.fit_area = [view.x + margin, view.y + margin, view.width - 2 * margin, view.height - 2 * margin]
        self.fit(animate=False)

    def show(self, step: int) -> str:
        board = self.first.copy()
        for _seat, placement, _forced in self.moves[:step]:
            board.push(placement)
        self.view.show(board)
        self.fit()
        self.marks.show(self.lines if step == self.steps else ())
        if step == 0:
            self.step_mark.show(None)
            return _("The start")
        seat, placement, forced = self.moves[step - 1]
        self.step_mark.show(placement.cell, forced)
        message = N_("{name} filled a forced space") if forced else N_("{name} placed a tile")
        return _(message, name=seat_name(self.game, seat, names=self.names, robot=self.by_robot[step - 1]))
