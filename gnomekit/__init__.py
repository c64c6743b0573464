"""gnomekit: rules verification and solvers for four tabletop games."""

import os as _os
import sys as _sys

__version__ = "0.1.0"

# python-sat installs scripts named ``models.py`` (and others) into the same
# ``bin/`` directory as our console script, and Python puts the script's
# directory first on ``sys.path``, so ``import models`` would find that script
# instead of our package.  A console script's directory never holds our code.
if _sys.path and _sys.argv and _sys.argv[0]:
    _script_dir = _os.path.dirname(_os.path.abspath(_sys.argv[0]))
    if _os.path.isfile(_os.path.join(_script_dir, "models.py")):
        _sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != _script_dir]
