"""The app's own screens (attract, home, prompts, staff); mode screens live in ``ui.modes``."""
