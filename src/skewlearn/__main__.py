"""``python -m skewlearn``: the ``skewlearn`` command line (:func:`skewlearn.cli.main`)."""

import sys

try:
    from skewlearn.cli import main
except KeyboardInterrupt:  # Ctrl-C while numpy loads: one line, as main gives later
    print("skewlearn: interrupted", file=sys.stderr)
    sys.exit(130)

if __name__ == "__main__":
    sys.exit(main())
