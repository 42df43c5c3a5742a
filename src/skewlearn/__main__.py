"""``python -m skewlearn``: the ``skewlearn`` command line (:func:`skewlearn.cli.main`)."""

import sys

from skewlearn.cli import main

if __name__ == "__main__":
    sys.exit(main())
