"""Ratings: who beats whom at this table, from the finished games alone.

The rating model is OpenSkill's Plackett-Luce model (the ``openskill`` package, a Weng-Lin Bayesian
rating system). It is chosen because one finished Tantrix game is a *ranking* of 2, 3 or 4 sides, and a
side may be a Doubles team of two: Plackett-Luce rates any number of teams of any size from their
ranks (draws included) in one update, where Elo and Glicko rate pairs only and TrueSkill's reference
implementation is encumbered; the library is pure Python, MIT-licensed, maintained and fast (a game
is rated in well under a millisecond), so rating every stored game again is cheap.

A participant is named by a key: a player's id (``firmware.players``), ``robot:<level>`` for a robot
or ``guest:<n>`` for a guest. Robots play at fixed ratings per level (:data:`ROBOT_RATINGS`, as on
tantrix.com) and are never updated, so a person climbs by beating them; a guest takes part as a
newcomer whose rating is forgotten after the game. :func:`rate_games` rates games in the order
given; the same games in the same order always give the same numbers, so the stored records are
the truth and the ratings a cache of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from openskill.models import PlackettLuce

from .strategy.game import Result, lost_on_time, places, robots_at

ROBOT = "robot:"
GUEST = "guest:"

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma`` (OpenSkill's units)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` (99.7 % sure the skill is above it), what a
        ladder sorts on, so a newcomer with one lucky win does not top it."""
        return self.mu - 3.0 * self.sigma

    @property
    def points(self) -> int:
        """The number shown to people: 1000 for a newcomer, about 40 per OpenSkill unit."""
        return round(1000 + 40 * self.ordinal)


ROBOT_RATINGS: Mapping[str, Rating] = {
    "beginner": Rating(15.0, 1.0),
    "club": Rating(25.0, 1.0),
    "expert": Rating(33.0, 1.0),
    "master": Rating(37.5, 1.0),
}
"""Fixed ratings per robot level of the strategy game (an unknown or external robot counts as
``club``). The small sigma says "we know how strong it is", so beating a beginner robot is worth
little and a master much. The gaps follow the measured ladder (README, robots: expert about 220 Elo
above club, master about 130 above expert), at about 28 Elo per OpenSkill unit."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished game: ``sides`` lists each side's participant keys (one for a single player,
    two for a Doubles team), ``ranks`` each side's place (1 = won; equal places are a draw)."""

    game: str
    sides: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.sides) < 2 or len(self.sides) != len(self.ranks):
            raise ValueError(f"game {self.game}: a rated game needs two or more sides, each with a place")
        if any(not side for side in self.sides):
            raise ValueError(f"game {self.game}: every side needs a participant")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "sides": [list(s) for s in self.sides], "ranks": list(self.ranks)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(str(data["game"]), tuple(tuple(str(k) for k in s) for s in data["sides"]),
                   tuple(int(r) for r in data["ranks"]))


def outcome_of_record(game: str, record: Mapping[str, Any], people: Sequence[str | None]) -> Outcome | None:
    """The outcome of a finished strategy game's record (``engine.strategy.record``): one side per colour
    (partners share one in Doubles), placed by the result. ``people[i]`` is the player id at seat
    ``i`` or None for a guest; a seat a robot plays at the end counts as that robot. None when the
    record has no result."""
    result = record.get("result")
    if not isinstance(result, Mapping):
        return None
    robots = robots_at(record)
    sides: dict[str, list[str]] = {}
    for index, (seat, robot) in enumerate(zip(record["seats"], robots)):
        person = people[index] if index < len(people) else None
        key = f"{ROBOT}{robot}" if robot is not None else person or f"{GUEST}{index}"
        sides.setdefault(seat["colour"], []).append(key)
    scores = {colour: int(result["scores"].get(colour, 0)) for colour in sides}
    place = places(Result(str(result.get("reason")), scores, result.get("winner")), lost_on_time(record))
    return Outcome(game, tuple(tuple(keys) for keys in sides.values()), tuple(place[colour] for colour in sides))


def is_rated(key: str) -> bool:
    """Whether a participant's rating is kept (players: yes; robots are fixed, guests forgotten)."""
    return not (key.startswith(ROBOT) or key.startswith(GUEST))


@dataclass(frozen=True, slots=True)
class Step:
    """One game's effect on one rated participant (a point of the ladder's history charts)."""

    game: str
    key: str
    before: Rating
    after: Rating


@dataclass
class Ladder:
    """The ratings of the players, updated game by game (:meth:`add`)."""

    ratings: dict[str, Rating] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    """Rated games per player."""
    model: PlackettLuce = field(default_factory=PlackettLuce)

    def rating(self, key: str) -> Rating:
        """A participant's current rating: a robot's fixed one, a player's, a newcomer's default."""
        if key.startswith(ROBOT):
            return ROBOT_RATINGS.get(key[len(ROBOT):], ROBOT_RATINGS["club"])
        return self.ratings.get(key, Rating())

    def add(self, outcome: Outcome) -> list[Step]:
        """Rate one game; returns each rated participant's change."""
        before = [[self.rating(key) for key in side] for side in outcome.sides]
        teams = [[self.model.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in before]
        rated = self.model.rate(teams, ranks=list(outcome.ranks))
        steps = []
        for side, old_side, new_side in zip(outcome.sides, before, rated):
            for key, old, new in zip(side, old_side, new_side):
                if is_rated(key):
                    after = Rating(new.mu, new.sigma)
                    self.ratings[key] = after
                    self.games[key] = self.games.get(key, 0) + 1
                    steps.append(Step(outcome.game, key, old, after))
        return steps

    def standings(self) -> list[tuple[str, Rating]]:
        """Rated players, best first (by ordinal, then by id so the order is stable)."""
        return sorted(self.ratings.items(), key=lambda item: (-item[1].ordinal, item[0]))


def rate_games(outcomes: Iterable[Outcome], model: PlackettLuce | None = None) -> tuple[Ladder, list[Step]]:
    """The ladder after ``outcomes`` in this order, and every step of its history."""
    ladder = Ladder() if model is None else Ladder(model=model)
    history: list[Step] = []
    for outcome in outcomes:
        history.extend(ladder.add(outcome))
    return ladder, history
