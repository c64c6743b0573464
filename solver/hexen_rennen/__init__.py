"""Hexen Rennen solvers: optimal chains (search and z3), expectimax over the die, games and audits."""
