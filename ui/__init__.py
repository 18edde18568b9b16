"""The touchscreen interface (Kivy): attract, home, game setup, boards for every mode, staff menu.

It drives the engine's mode objects and draws their state; it never decides a rule itself. It does
not know which devices exist: the firmware feeds it events and gives it the LED cues to show.
"""
