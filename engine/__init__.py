"""The Tantrix rules engine: pure Python, typed, with no knowledge of screens or devices.

It holds the tile set, the hexagonal geometry, the board with its rules (golden rule, forced spaces,
the three restrictions, lines, loops and scores), the game procedures of every mode, the puzzle
solver and the robots. Nothing here imports Kivy, gpiozero, pyserial or rpi_ws281x, so the same code
runs on the kiosk, in tests, in benchmarks and behind the command line (`python -m engine`).
Where a build made them (engine.compiled), the modules under the robots' search run compiled from
this same source by mypyc; the guard below falls back to the source when that build is stale.
"""

from . import compiled

compiled.guard()
