"""Geometry exactly as rules.md section 2 fixes it."""

from engine.geometry import (
    DIRECTIONS, STEP, distance, key, neighbour, opposite, pyramid, rotate_cell, unkey,
)


def test_directions_clockwise_from_east():
    assert DIRECTIONS == ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    for d in range(6):
        assert neighbour(neighbour((3, -2), d), opposite(d)) == (3, -2)


def test_pyramids():
    assert [len(pyramid(n)) for n in (4, 5, 9)] == [10, 15, 45]
    rows = pyramid(4)
    assert rows[:3] == [(0, 0), (-1, 1), (0, 1)]
    assert all(0 <= r < 4 and -r <= q <= 0 for q, r in rows)


def test_keys_round_trip_and_steps_match_directions():
    for cell in [(0, 0), (-300, 17), (12, -40), (16000, -16000)]:
        assert unkey(key(cell)) == cell
        for d in range(6):
            assert key(neighbour(cell, d)) == key(cell) + STEP[d]


def test_rotation_about_origin_turns_directions_clockwise():
    for d in range(6):
        assert rotate_cell(DIRECTIONS[d], 1) == DIRECTIONS[(d + 1) % 6]
    assert distance((0, 0), rotate_cell((3, -1), 4)) == 3
