"""`python -m leadenrich`: the `leadenrich` command, where its script is not on PATH."""

import sys

from ._cli import main

# Guarded: tools that import every module (doctest collection) must not run the command.
if __name__ == "__main__":
    sys.exit(main())
