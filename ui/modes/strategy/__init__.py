"""The strategy game's screens: setup, play (with the seats' widgets), results, clocks, the coach and its how
to play."""
