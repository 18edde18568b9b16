"""Gobble (solo) and Gobbles (real-time multiplayer): one placement rule, two modes.

* :mod:`.rules`: where a tile may go (touch two tiles, match all) and what filling a space earns;
* :mod:`.solo`: :class:`GobbleSolo`, the solo mode (KIND ``"gobble-solo"``);
* :mod:`.gobbles`: :class:`Gobbles`, the deterministic, replayable core of the race (KIND ``"gobbles"``);
* :mod:`.robots`: computer players with a reaction time per level;
* :mod:`.table`: :class:`GobblesTable`, real time: thread-safe claims, robots and gift timeouts on
  an injected clock;
* :mod:`.cli`: ``python -m engine gobbles-replay RECORD.json``.
"""
