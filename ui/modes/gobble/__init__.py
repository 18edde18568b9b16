"""Gobble solo and the Gobbles race."""
