"""Random Tanagra games played through the engine's public API (``engine.tanagra.game.Game``) and
the naive reference (``tanagra_reference``) side by side, comparing at every position the full set
of legal actions, the engine's ``check`` on a sample of legal and illegal actions, whose turn and
which phase it is, the pieces, the pawns, the isolated pieces, the holders and the result.

Games start from the empty table, or from positions made up with the reference's geometry (crowded
tables, pieces standing apart, 4-player standoffs) that reach long jumps and every end sooner. The
reference picks each action (leaning towards captures and board changes), so a disagreement is
reported at the first position where it shows, with the seed that replays it. Used by ``tests/test_tanagra_reference.py`` (a few seconds) and
``bench/tanagra_differential.py`` (as many games as asked).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import tanagra_reference as ref

from engine.tanagra.game import Game
from engine.tanagra.rules import Action, Leave, Move, Options, Pass, Pawn, Place, Relocate, Remove, Size, State


def to_ref(action: Action) -> ref.RAction:
    if isinstance(action, Place):
        return ("place", tuple(action.centre), None if action.size is None else action.size.value)
    if isinstance(action, Move):
        return ("move", tuple(action.origin), tuple(action.target))
    if isinstance(action, Relocate):
        return ("relocate", tuple(action.centre))
    return ({Pass: "pass", Leave: "leave", Remove: "remove"}[type(action)],)


def to_engine(action: ref.RAction) -> Action:
    tag = action[0]
    if tag == "place":
        return Place(action[1], None if action[2] is None else Size(action[2]))
    if tag == "move":
        return Move(action[1], action[2])
    if tag == "relocate":
        return Relocate(action[1])
    simple: dict[str, Action] = {"pass": Pass(), "leave": Leave(), "remove": Remove()}
    return simple[tag]


@dataclass
class Report:
    games: int = 0
    positions: int = 0
    actions: int = 0
    ends: dict[str, int] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    disagreements: list[str] = field(default_factory=list)


def differences(game: Game, model: ref.Reference) -> list[str]:
    """What the engine and the reference say differently about the current position."""
    state = game.state
    out = []
    mine = {to_ref(a) for a in game.legal_actions()}
    theirs = model.legal()
    if mine != theirs:
        out.append(f"legal actions: engine only {sorted(mine - theirs)[:6]}, "
                   f"reference only {sorted(theirs - mine)[:6]}")
    result = None if state.result is None else (state.result.winner, state.result.reason.value)
    if result != model.result:
        out.append(f"result: engine {result}, reference {model.result}")
    if state.phase.value != model.phase:
        out.append(f"phase: engine {state.phase.value}, reference {model.phase}")
    if state.phase.value != "over" and state.turn != model.turn:
        out.append(f"turn: engine {state.turn}, reference {model.turn}")
    if set(state.pieces()) != model.piece_centres():
        out.append("pieces differ")
    pawns = {c: (p.owner, None if p.size is None else p.size.value) for c, p in state.pawns.items()}
    if pawns != model.pawn_names():
        out.append("pawns differ")
    if set(state.isolated_pieces()) != model.isolated_centres():
        out.append(f"isolated: engine {sorted(state.isolated_pieces())}, "
                   f"reference {sorted(model.isolated_centres())}")
    if model.players > 2 and state.holders() != model.holders():
        out.append(f"holders: engine {sorted(state.holders())}, reference {sorted(model.holders())}")
    pending = None if game.pending_change is None else tuple(game.pending_change)
    if pending != (None if model.pending is None else ref.engine_name(ref.centre(model.pending))):
        out.append("pending piece differs")
    return out


def refusals(game: Game, model: ref.Reference, rng: random.Random) -> list[str]:
    """The engine's check() against the reference's legal set, on a sample: None for legal
    actions, a refusal for others (random ones of every kind, on and near the table)."""
    legal = model.legal()
    out = []
    for action in rng.sample(sorted(legal, key=repr), min(4, len(legal))):
        refusal = game.check(to_engine(action))
        if refusal is not None:
            out.append(f"engine refuses legal {action}: {refusal}")
    names = sorted(model.pawn_names()) + sorted(ref.engine_name(c) for c in model.cells()) + list(ref.FIRST_CENTRES)
    near = [(a + da, b + db, c + dc) for a, b, c in names for da, db, dc in ((0, 0, 1), (1, 0, 0), (0, -1, 0))]
    tries: list[ref.RAction] = [("pass",), ("leave",), ("remove",)]
    for _ in range(4):
        tries.append(("move", rng.choice(names), rng.choice(names + near)))
        tries.append(("relocate", rng.choice(names + near)))
        tries.append(("place", rng.choice(names + near), rng.choice(("small", "big")) if model.players == 2 else None))
    for action in tries:
        if action not in legal and game.check(to_engine(action)) is None:
            out.append(f"engine accepts illegal {action}")
    return out


def choose(rng: random.Random, actions: list[ref.RAction], model: ref.Reference) -> ref.RAction:
    """A random action, leaning towards what makes games end: captures, moves next to a pawn one
    may take, removed pieces."""
    tags = {a[0] for a in actions}
    if tags & {"leave", "remove", "relocate"}:
        roll = rng.random()
        want = "remove" if roll < 0.35 else "leave" if roll < 0.6 else "relocate"
        return rng.choice([a for a in actions if a[0] == want] or actions)
    if "move" not in tags:
        return rng.choice(actions)
    pawns = model.pawn_names()
    mover = pawns[actions[0][1]]
    takes = [a for a in actions if a[2] in pawns]
    if takes and rng.random() < 0.7:
        return rng.choice(takes)
    named = {ref.engine_name(c): c for c in model.cells()}
    prey = [c for c, k in model.pawns.items() if model.takes(mover, k)]
    near = [a for a in actions if any(ref.touch(named[a[2]], c) for c in prey)]
    if near and rng.random() < 0.5:
        return rng.choice(near)
    return rng.choice(actions)


def random_position(rng: random.Random, players: int, x: int, quiet: int) -> tuple[Game, ref.Reference]:
    """A move-phase position made up at random (built by the reference's geometry): a few pieces,
    mostly touching, some standing apart, crowded with everybody's pawns anywhere on them."""
    model = ref.Reference(players, x, quiet)
    model.reserve = {kind: 0 for kind in model.reserve}
    model.pieces = {rng.choice(sorted(model.first_sites(), key=sorted))}
    for _ in range(rng.randint(0, 9)):
        site = rng.choice(sorted(model.sites(model.pieces), key=sorted))
        if rng.random() < 0.2:  # moved far off: mostly touching nothing
            shift = rng.choice(ref.UNIT)
            site = frozenset(ref.add(p, shift, 8) for p in site)
            if any(c in model.cells() for c in ref.piece_cells(site)):
                continue
        model.pieces.add(site)
    kinds = sorted(model.reserve, key=repr)
    density = rng.choice((rng.uniform(0.2, 0.9), 0.97))
    model.turn = rng.randrange(players)
    # Often mostly the mover's own pawns: long chains of them, around the mover too.
    weights = [1 + (k[0] == model.turn) * rng.choice((0, 8)) for k in kinds]
    while True:
        model.pawns = {c: rng.choices(kinds, weights)[0] for c in sorted(model.cells(), key=sorted)
                       if rng.random() < density}
        if set(model.pawns.values()) == set(kinds):
            break
    model.phase = "move"
    return start_from(model)


def standoff_position(rng: random.Random, x: int, quiet: int) -> tuple[Game, ref.Reference]:
    """A 4-player position where nobody can move: seats 0 and 2 (who never take each other) fill
    a few touching pieces, seats 1 and 3 each fill a piece far from everything."""
    model = ref.Reference(4, x, quiet)
    model.reserve = {kind: 0 for kind in model.reserve}
    model.pieces = {rng.choice(sorted(model.first_sites(), key=sorted))}
    for _ in range(rng.randint(1, 5)):
        model.pieces.add(rng.choice(sorted(model.sites(model.pieces), key=sorted)))
    model.pawns = {c: (rng.choice((0, 2)), None) for c in model.cells()}
    for seat, shift in ((1, ref.UNIT[0]), (3, ref.UNIT[3])):
        far = frozenset(ref.add(p, shift, 20) for p in next(iter(model.pieces)))
        model.pieces.add(far)
        model.pawns |= {c: (seat, None) for c in ref.piece_cells(far)}
    model.phase = "move"
    model.turn = rng.randrange(4)
    return start_from(model)


def start_from(model: ref.Reference) -> tuple[Game, ref.Reference]:
    """The engine's game starting from the reference's made-up move-phase position."""
    start = State.position(
        Options(players=model.players, x=model.x, quiet_rounds=model.quiet_rounds),
        [ref.engine_name(ref.centre(p)) for p in model.pieces],
        {ref.engine_name(c): Pawn(k[0], None if k[1] is None else Size(k[1])) for c, k in model.pawns.items()},
        turn=model.turn,
    )
    return Game(start=start), model


def play_game(seed: int, report: Report, max_actions: int = 2000, made_up: bool = False) -> None:
    """One random game, from the empty table or (``made_up``) from a random position;
    disagreements go to ``report`` (the game stops at the first one, with the action that led
    there)."""
    rng = random.Random(seed)
    probe = random.Random(-seed)
    players = (2, 3, 4)[seed % 3]
    x = rng.choice((4, 5, 6))
    quiet = rng.choice((3, 30, 30))
    if made_up and players == 4 and rng.random() < 0.1:
        game, model = standoff_position(rng, x, quiet)
    elif made_up:
        game, model = random_position(rng, players, x, quiet)
    else:
        game = Game(Options(players=players, x=x, quiet_rounds=quiet))
        model = ref.Reference(players, x, quiet)
    last: ref.RAction | None = None
    for _ in range(max_actions):
        report.positions += 1
        diff = differences(game, model) + refusals(game, model, probe)
        if diff:
            report.disagreements.append(f"seed {seed}{' made up' if made_up else ''} ({players} players, "
                                        f"x={x}, quiet={quiet}) after {len(game.actions)} actions, "
                                        f"last {last}: {diff}")
            return
        if model.phase == "over":
            break
        actions = sorted(model.legal(), key=repr)
        last = choose(rng, actions, model)
        kind = last[0]
        if kind == "move" and not ref.touch(model.by_name(last[1]), model.by_name(last[2])):
            kind = "jump and take" if last[2] in model.pawn_names() else "jump"
        elif kind == "move":
            kind = "step and take" if last[2] in model.pawn_names() else "step"
        report.played[kind] = report.played.get(kind, 0) + 1
        game.apply(to_engine(last))
        model.play(last)
        report.actions += 1
    report.games += 1
    end = "unfinished" if model.result is None else model.result[1]
    report.ends[end] = report.ends.get(end, 0) + 1


def run(seeds: range, made_up: bool = False) -> Report:
    report = Report()
    for seed in seeds:
        play_game(seed, report, made_up=made_up)
    return report
