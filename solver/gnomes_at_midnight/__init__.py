"""Gnomes at Midnight solvers: forced-win search, SMT cross-check, tablebase, puzzles, hints."""
