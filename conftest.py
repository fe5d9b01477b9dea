"""Makes the shared test configurations in tests/ (configs.py) importable from every test and
benchmark file."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "tests"))
