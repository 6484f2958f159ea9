"""`python -m scorekeeper.cli`, as the `scorekeeper` command."""

import sys

from .parser import main

sys.exit(main())
