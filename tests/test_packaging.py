"""The distribution is one package, ``gnomekit``, and works from anywhere once installed.

The wheel is built from this checkout and installed into a fresh virtual environment (its
dependencies come from the test environment's site-packages, added by a .pth file, so nothing
is downloaded); then, from a folder holding a user's own ``models.py``, the console script
and the API must work and ``import models`` must find the user's file, not gnomekit.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPPING = {"gnomekit": "gnomekit", "gnomekit.models": "models", "gnomekit.solver": "solver",
           "gnomekit.puzzles": "puzzles"}


def test_every_package_folder_is_listed() -> None:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert conf["package-dir"] == MAPPING
    listed = set(conf["packages"])
    found = set()
    for name, folder in MAPPING.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]) if rel.parts else name)
    assert found == listed


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(ROOT)], check=True, capture_output=True, text=True)
    (whl,) = out.glob("gnomekit-*.whl")
    return whl


def test_wheel_holds_one_top_level_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"gnomekit", next(t for t in tops if t.endswith(".dist-info"))}
    assert "gnomekit/models/hedge_mage/data/default.toml" in names
    assert any(n.startswith("gnomekit/puzzles/hedge-mage/") and n.endswith(".toml") for n in names)
    top_level = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
    assert zipfile.ZipFile(wheel).read(top_level).decode().split() == ["gnomekit"]


def test_installed_wheel_works_beside_a_users_models_py(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env)
    py = env / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True, capture_output=True, text=True)
    # Dependencies (python-sat, z3, networkx, numpy) from the test environment, not downloaded.
    (site / "_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    script = env / "bin" / "gnomekit"
    user = tmp_path / "work"
    user.mkdir()
    (user / "models.py").write_text("WHO = 'the user'\n")
    (env / "bin" / "models.py").write_text("WHO = 'a script'\n")  # as python-sat installs one beside ours

    run = subprocess.run([str(script), "tour", "--quiet", "--game", "gnome-hollow"], cwd=user,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "puzzles solved and verified" in run.stdout

    probe = (
        "import gnomekit, models\n"
        "assert models.WHO == 'the user', models.__file__\n"
        f"assert gnomekit.__file__.startswith({str(site)!r}), gnomekit.__file__\n"
        "for name in gnomekit.games():\n"
        "    g = gnomekit.game(name)\n"
        "    pos = g.new()\n"
        "    assert g.read(pos.to_text()) == pos\n"
        "print('ok', len(gnomekit.games()))\n"
    )
    run = subprocess.run([str(py), "-c", probe], cwd=user, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["ok", "4"]
