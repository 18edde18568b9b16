"""Move generation pinned by a perft-like table (``perft.json``, made by ``tests/perft.py`` with the
literal reference rules): for each position and hand, the engine's legal placements are exactly the
table's, and each position's status names the restrictions it already breaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.board import Board, Placement, Status
from perft import TABLE, reference_set

ENTRIES = json.loads(Path(TABLE).read_text())


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_the_engine_generates_exactly_the_tables_legal_placements(entry):
    board = Board.from_json(entry["position"])
    legal = sorted(list(p) for p in board.legal_placements(entry["hand"]))
    assert len(legal) == entry["count"] and legal == entry["legal"]
    assert all(board.is_legal(Placement(*p)) for p in entry["legal"])
    assert int(board.status()) == entry["status"]


def test_the_table_is_still_what_the_reference_rules_say():
    for entry in ENTRIES[::3]:  # a third of it each run keeps the suite quick; perft.py redoes all
        board = Board.from_json(entry["position"])
        assert reference_set(board, entry["hand"]) == entry["legal"], entry["name"]


def test_the_table_covers_real_and_crafted_positions():
    statuses = {Status(entry["status"]) for entry in ENTRIES}
    assert statuses == {Status.VALID, Status.DEAD_FORCED_SPACE, Status.FOUR_NEIGHBOURS, Status.CONTROLLED_SIDE}
    assert any(e["position"]["bag"] == 0 for e in ENTRIES) and sum(e["count"] for e in ENTRIES) > 2000


def test_a_space_with_four_neighbours_can_still_be_filled():
    (entry,) = [e for e in ENTRIES if e["status"] == Status.FOUR_NEIGHBOURS]
    board = Board.from_json(entry["position"])
    (problem,) = board.problems()
    assert problem.rule == "restriction-2" and entry["legal"]
    assert all((p[1], p[2]) == problem.cells[0] for p in entry["legal"])  # only filling it mends the position


def test_analyse_names_why_a_position_cannot_arise():
    from engine.cli import analyse

    for entry in ENTRIES:
        status = analyse(Board.from_json(entry["position"]))["status"]
        if entry["status"] == Status.VALID:
            assert status == []
        else:
            assert [s["rule"] for s in status] and all(s["why"] and s["cells"] for s in status)
