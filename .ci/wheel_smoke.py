"""Smoke test of an installed stonefield (a wheel): run from outside the source tree, it checks
that the package imports from site-packages, plays every game, searches, and that the command
line works. Used by `.ci/run` and the release workflow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import stonefield as sf

here = Path(sf.__file__).resolve().parent
assert "site-packages" in here.parts, f"stonefield imported from {here}, not from site-packages"
assert "abi3" in Path(sf._core.__file__).name or os.name == "nt", sf._core.__file__
print("stonefield", sf.__version__, "from", here)

for name in sf.games():
    result = sf.simulate(name, 200, seed=1)
    assert result.n_games == 200 and result.lengths.min() > 0, name
    state = sf.make(name).new_state()
    action = sf.MCTS(iterations=200, seed=0).act(state)
    assert state.is_legal(action), name
    print(f"  {name:<12} {result.playouts_per_second:>10,.0f} playouts/s, MCTS plays {action}")

# The script pip installed next to this interpreter (the environment need not be activated).
scripts = Path(sys.executable).parent
cli = shutil.which("stonefield", path=str(scripts)) or shutil.which("stonefield")
assert cli is not None, f"no stonefield script in {scripts} or on the PATH"
out = subprocess.run(
    [cli, "simulate", "subsume", "size=4", "-n", "100", "--json"],
    check=True,
    capture_output=True,
    text=True,
).stdout
assert '"games": 100' in out, out
bad = subprocess.run([cli, "simulate", "subsume", "size=99"], capture_output=True, text=True)
assert bad.returncode == 2 and "stonefield simulate: error:" in bad.stderr, bad.stderr
print("smoke test passed")
sys.exit(0)
