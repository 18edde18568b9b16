"""The solo modes of the booklets: Discovery, Rainbow and booklet puzzles, Solitaire, rotation puzzles.

Each mode is a state object the UI drives (see :mod:`engine.modes`): what may be done now, apply an
action or refuse it with the rule it breaks, undo where the booklet allows moving tiles, progress,
a score, hints, and a complete JSON save.
"""
