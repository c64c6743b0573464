"""Write perft.txt: legal placement counts per tile for every position in positions/.

Run from the repository root: ``python3 tests/hedge_mage/perft/make_perft.py``.
Each count is established twice, independently, and the file is written only when
both agree: (1) ``models.hedge_mage.placement.is_legal_slow`` over the engine's
``candidates`` with the engine's ``movement_points``; (2) the test reference
(``tests/hedge_mage/hm_reference.py``: own orientations from the tile pictures,
networkx connectivity, inclusion-exclusion points).  The fast enumeration under
test is deliberately not used here.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from gnomekit.models.hedge_mage.edition import default_edition  # noqa: E402
from gnomekit.models.hedge_mage.notation import read_garden  # noqa: E402
from gnomekit.models.hedge_mage.placement import candidates, is_legal_slow, movement_points  # noqa: E402

from tests.hedge_mage.hm_reference import default_pictures, reference_counts  # noqa: E402

HEADER = """\
# Hedge Mage perft: legal placements per tile on fixed gardens (default edition tiles).
# Records are separated by blank lines:
#   id: NAME
#   position: FILE            (a garden file in positions/, text or JSON)
#   TILE COUNT POINTS         (one line per tile: legal placements and the sum of their
#                              movement points, bonus tokens not counted)
#   total: COUNT
# Written by make_perft.py, which counts twice independently (is_legal_slow over the
# engine's candidates, and networkx over orientations generated from the tile pictures)
# and refuses to write when they differ.  Small ones are also counted by hand in
# test_perft.py (HAND_COUNTS).
"""


def main() -> int:
    ed = default_edition()
    pics = default_pictures()
    records = []
    bad = 0
    for path in sorted((HERE / "positions").iterdir()):
        if path.suffix not in (".txt", ".json"):
            continue
        g = read_garden(path.read_text("utf-8"), path.name, ed)
        ref = reference_counts(g, pics)
        lines = [f"id: {path.stem}", f"position: {path.name}"]
        total = 0
        for name, tile in ed.tiles.items():
            slow = sorted(c.placement.key for c in candidates(g, tile) if is_legal_slow(g, c.placement))
            slow_pts = sum(movement_points(g, c.placement)[0]
                           for c in candidates(g, tile) if is_legal_slow(g, c.placement))
            n, pts, keys = ref[name]
            if slow != keys or slow_pts != pts:
                bad += 1
                print(f"{path.name} {name}: slow {len(slow)}/{slow_pts} reference {n}/{pts}")
                print("  only slow:", sorted(set(slow) - set(keys))[:5])
                print("  only reference:", sorted(set(keys) - set(slow))[:5])
            lines.append(f"{name} {n} {pts}")
            total += n
        lines.append(f"total: {total}")
        records.append("\n".join(lines))
        print(f"{path.stem}: {total}")
    if bad:
        print(f"{bad} disagreement(s); perft.txt not written")
        return 1
    (HERE / "perft.txt").write_text(HEADER + "\n" + "\n\n".join(records) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
