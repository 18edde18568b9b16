"""The strategy game's screens: setup, play, results, clocks, the coach and its how to play."""
