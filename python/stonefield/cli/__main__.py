"""``python -m stonefield.cli``."""

import sys

from . import main

sys.exit(main())
