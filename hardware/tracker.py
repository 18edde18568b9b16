"""From a stream of raw reads to placements: one event per tag put down, one per tag taken away.

Readers repeat a tag's id for as long as it lies on them, and a weak coupling can produce a lone
ghost read. So a tag counts as placed after ``confirm_reads`` identical reports, each within
``removal_silence_s`` of the previous one; repeats of the present tag only keep it alive; it is
removed after ``removal_silence_s`` without a report, or at once on an explicit "gone". A pure
state machine over explicit times, shared by the serial and the simulated reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Change(NamedTuple):
    placed: bool  # False: removed
    reader: int
    uid: str
    at: float


@dataclass
class _Slot:
    present: str | None = None
    last_seen: float = 0.0
    candidate: str | None = None
    count: int = 0
    candidate_at: float = 0.0


class TagTracker:
    def __init__(self, confirm_reads: int, removal_silence_s: float | None) -> None:
        """``removal_silence_s=None``: tags stay until ``gone()`` (the simulated reader)."""
        self.confirm_reads = confirm_reads
        self.removal_silence_s = removal_silence_s
        self._slots: dict[int, _Slot] = {}

    def present(self) -> dict[int, str]:
        """reader -> UID of the tag lying on it now."""
        return {reader: slot.present for reader, slot in self._slots.items() if slot.present is not None}

    def seen(self, reader: int, uid: str, t: float) -> list[Change]:
        slot = self._slots.setdefault(reader, _Slot())
        if uid == slot.present:
            slot.last_seen, slot.candidate = t, None
            return []
        silence = self.removal_silence_s
        if slot.candidate == uid and (silence is None or t - slot.candidate_at <= silence):
            slot.count += 1
        else:
            slot.candidate, slot.count = uid, 1
        slot.candidate_at = t
        if slot.count < self.confirm_reads:
            return []
        changes = self.gone(reader, t)  # a tile swapped faster than the silence: old one first
        slot.present, slot.last_seen = uid, t
        return changes + [Change(True, reader, uid, t)]

    def gone(self, reader: int, t: float) -> list[Change]:
        slot = self._slots.get(reader)
        if slot is None:
            return []
        uid, slot.present, slot.candidate = slot.present, None, None
        return [Change(False, reader, uid, t)] if uid is not None else []

    def forget_all(self, t: float) -> list[Change]:
        """Every present tag removed (the link was lost, or the controller restarted)."""
        return [change for reader in sorted(self._slots) for change in self.gone(reader, t)]

    def unwatched(self, seconds: float) -> None:
        """The reports could not come for ``seconds`` (the reading thread was held up): that time is
        no silence, or a tag lying there all along would be removed and placed again."""
        for slot in self._slots.values():
            if slot.present is not None:
                slot.last_seen += seconds

    def poll(self, t: float) -> list[Change]:
        if self.removal_silence_s is None:
            return []
        return [change for reader, slot in sorted(self._slots.items())
                if slot.present is not None and t - slot.last_seen > self.removal_silence_s
                for change in self.gone(reader, t)]

    def deadline(self) -> float | None:
        """When the next silent tag would be removed."""
        if self.removal_silence_s is None:
            return None
        times = [slot.last_seen for slot in self._slots.values() if slot.present is not None]
        return min(times) + self.removal_silence_s if times else None
