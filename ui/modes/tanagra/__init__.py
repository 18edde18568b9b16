"""Tanagra, the second game in the box."""
