"""Where a warning should point: the first frame outside skewlearn (the user's line).

A module of its own (no imports beyond the standard library) so the dataset readers can
use it without importing :mod:`skewlearn.base`, which loads scikit-learn and numba.
"""

from __future__ import annotations

import os
import sys

__all__ = ["user_stacklevel"]

#: skewlearn's package directory (with a trailing separator), for :func:`user_stacklevel`.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning raised by this function's caller point at
    the first frame outside skewlearn: the user's line, however deep in a learner or a
    reader the warning is raised, and whether the learner was called directly (``fit``,
    ``partial_fit``, ``test_then_train``) or through the River adapter, the reader
    directly (``read_csv``) or through ``read``, ``load`` or ``iter_chunks``."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level  # (the outermost frame if every frame is skewlearn's)
