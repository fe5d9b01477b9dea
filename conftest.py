"""Makes the test helpers in tests/ importable and skips benchmarks' fixture when the plugin is
absent."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "tests"))
