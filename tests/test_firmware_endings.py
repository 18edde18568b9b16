"""Crash injection at every commit boundary of every family's ending.

A finished game writes its record, its statistics (counters, scores, solved puzzles) and clears the
journal of the game in progress. Each family's ending below is the sequence of store calls its
screen makes (``ui/modes/*``: ``finish`` or ``show_solved``), with the shared helpers of
``ui.modes.solo.common`` called for real. For every statement the store sends to SQLite during that
ending, a forked child is killed (``os._exit``, no clean-up, as a power cut) just before it; one more
run is killed right after the ending. The parent then starts again as the kiosk does: if a game is
still journaled it is resumed and ended again. Whatever the crash point, every count must be exactly
one: nothing lost, nothing doubled, and nothing left to offer as "interrupted".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

from firmware.store import SqliteStore
from ui.modes.solo.common import record_solitaire_won, record_solved, record_time, solved_puzzles

Ending = Callable[[SqliteStore], None]
FINISHED = {"kind": "test-finished", "state": {"over": True}}


def strategy(store: SqliteStore) -> None:
    with store.batch():
        store.add_record("strategy", {"events": [1, 2], "robots": {"expert": "won", "club": "lost"}})
        store.clear_current()


def gobbles(store: SqliteStore) -> None:
    with store.batch():
        store.add_record("gobbles", {"players": 2})
        store.clear_current()


def tanagra(store: SqliteStore) -> None:
    with store.batch():
        store.add_record("tanagra", {"moves": 40})
        store.clear_current()


def gobble_solo(store: SqliteStore) -> None:
    with store.batch():
        store.add_score("gobble-solo", "2026-11-25", 31)
        store.add_record("gobble-solo", {"score": 31})
        store.clear_current()


def solitaire(store: SqliteStore) -> None:
    with store.batch():
        store.add_score("solitaire:easy:loop", "2026-11-25", 12)
        store.add_record("solitaire", {"score": 12})
        store.clear_current()
        record_solitaire_won(store)


def puzzle(store: SqliteStore) -> None:
    with store.batch():
        record_time(store, "discovery-5", 73.0)
        record_solved(store, "discovery-5")
        record_solved(store, "genius-4")
        store.add_record("puzzle", {"tiles": 5})
        store.clear_current()


ENDINGS: dict[str, Ending] = {f.__name__: f for f in (strategy, gobbles, tanagra, gobble_solo, solitaire, puzzle)}


class Crashing:
    """A connection that dies (the whole process, at once) before its ``at``-th statement."""

    def __init__(self, db: Any, at: int) -> None:
        self._db, self._at, self.count = db, at, 0

    def execute(self, *args: Any) -> Any:
        self._tick()
        return self._db.execute(*args)

    def executemany(self, *args: Any) -> Any:
        self._tick()
        return self._db.executemany(*args)

    def _tick(self) -> None:
        self.count += 1
        if self.count == self._at:
            os._exit(17)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def statements(ending: Ending, directory: Path) -> int:
    """How many statements the ending sends (counted in a run that does not crash)."""
    with SqliteStore(directory) as store:
        store.save_current(FINISHED)
        store.wait_for_backup()
        counting = Crashing(store._db, at=0)
        store._db = counting
        ending(store)
        store._db = counting._db
        return counting.count


def crash(ending: Ending, directory: Path, at: int | None) -> None:
    """Run ``ending`` in a forked child killed before statement ``at`` (None: right after it)."""
    with SqliteStore(directory) as store:
        store.save_current(FINISHED)  # the last step of the game, journaled before it ends
        store.wait_for_backup()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child never returns
        store = SqliteStore(directory)
        store.wait_for_backup()
        if at is not None:
            store._db = Crashing(store._db, at)
        ending(store)
        os._exit(17)
    _, status = os.waitpid(child, 0)
    assert os.WEXITSTATUS(status) == 17


def restart(ending: Ending, directory: Path) -> SqliteStore:
    """Start again as the kiosk does: a game still journaled is resumed, and it ends again."""
    store = SqliteStore(directory)
    saved = store.load_current()
    if saved is not None:
        assert saved == FINISHED
        ending(store)
    return store


def check_once(name: str, store: SqliteStore) -> None:
    statistics = store.statistics()
    kind = name.replace("_", "-")
    assert statistics["games"] == {kind: 1} and statistics["records"] == 1
    assert store.load_current() is None  # nothing is offered as "interrupted"
    if name == "strategy":
        assert statistics["robots"] == {"expert": {"won": 1, "lost": 0, "drawn": 0},
                                        "club": {"won": 0, "lost": 1, "drawn": 0}}
    if name == "gobble_solo":
        assert store.high_scores("gobble-solo") == [("2026-11-25", 31)]
    if name == "solitaire":
        assert store.progress("learn") == {"solitaire": True}
        assert len(store.high_scores("solitaire:easy:loop")) == 1
    if name == "puzzle":
        assert store.progress("learn") == {"discovery": [5]} and solved_puzzles(store) == {"genius-4"}
        assert [score for _, score in store.high_scores("time:discovery-5")] == [-73]


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_a_crash_at_any_commit_boundary_of_an_ending_counts_the_game_exactly_once(tmp_path, name):
    ending = ENDINGS[name]
    total = statements(ending, tmp_path / "count")
    assert total >= 4  # BEGIN, the writes, COMMIT
    points: list[int | None] = [*range(1, total + 1), None]
    for at in points:
        directory = tmp_path / f"at-{at}"
        crash(ending, directory, at)
        store = restart(ending, directory)
        try:
            check_once(name, store)
        except AssertionError as exc:
            raise AssertionError(f"{name}: killed before statement {at} of {total}: {exc}") from None
        finally:
            store.close()
