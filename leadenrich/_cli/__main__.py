"""`python -m leadenrich._cli`: the same as the `leadenrich` command."""

import sys

from . import main

# Guarded: tools that import every module (doctest collection) must not run the command.
if __name__ == "__main__":
    sys.exit(main())
