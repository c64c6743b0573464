"""Gnomes at Midnight: editions, positions, moves and notations (rules as code)."""
