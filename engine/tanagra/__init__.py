"""Tanagra, the second game in the box: rules engine, game records and robots (pure Python)."""
