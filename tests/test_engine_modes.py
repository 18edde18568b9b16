"""The mode registry: what the firmware relies on to resume any mode after a power cut."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from engine.modes import Mode, Refused, register, restore, save


@register
@dataclass
class Counter:
    KIND = "test-counter"
    value: int = 0

    @property
    def finished(self) -> bool:
        return self.value >= 3

    def legal_actions(self) -> list[int]:
        return [] if self.finished else [1]

    def check(self, action: int) -> Refused | None:
        return Refused("game-over", "counted to three") if self.finished else None

    def apply(self, action: int) -> None:
        refusal = self.check(action)
        if refusal is not None:
            raise refusal
        self.value += action

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Counter":
        if not isinstance(data.get("value"), int):
            raise ValueError("value must be a whole number")
        return cls(data["value"])


def test_save_and_restore_round_trip():
    mode = Counter(2)
    assert isinstance(mode, Mode)
    again = restore(save(mode))
    assert again == mode and not again.finished


def test_restore_names_what_is_wrong():
    with pytest.raises(ValueError, match="unknown mode kind 'nope'"):
        restore({"kind": "nope", "state": {}})
    with pytest.raises(ValueError, match="no state"):
        restore({"kind": "test-counter"})
    with pytest.raises(ValueError, match="whole number"):
        restore({"kind": "test-counter", "state": {"value": "x"}})


def test_two_modes_cannot_share_a_kind():
    with pytest.raises(ValueError, match="two modes"):
        @register
        class Other:
            KIND = "test-counter"


def test_refused_carries_rule_cells_and_words():
    refused = Refused("golden-rule", "touching edges must match", ((0, 0), (1, 0)))
    assert refused.rule == "golden-rule" and refused.cells == ((0, 0), (1, 0))
    assert str(refused) == "golden-rule: touching edges must match"
