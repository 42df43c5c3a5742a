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


#: Packages whose frames stand between a user's line and a skewlearn method that warns:
#: scikit-learn's ``Pipeline``, ``fit_transform``, ``cross_val_score`` and ``GridSearchCV``,
#: imbalanced-learn's pipeline, joblib's sequential backend under them, and River's
#: ``compose.Pipeline`` and ``evaluate.progressive_val_score`` around the River adapter.
#: Their frames are passed over as skewlearn's are, so the warning names the line that
#: called them.
_CALLERS = ("sklearn", "imblearn", "joblib", "river")


def _skipped_dirs() -> tuple[str, ...]:
    """skewlearn's directory and those of the :data:`_CALLERS` already imported (read from
    ``sys.modules``, so this module still imports nothing beyond the standard library)."""
    dirs = [_PACKAGE_DIR]
    for name in _CALLERS:
        path = getattr(sys.modules.get(name), "__file__", None)
        if path:
            dirs.append(os.path.dirname(os.path.abspath(path)) + os.sep)
    return tuple(dirs)


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning raised by this function's caller point at
    the first frame outside skewlearn: the user's line, however deep in a learner or a
    reader the warning is raised, and whether the learner was called directly (``fit``,
    ``partial_fit``, ``test_then_train``) or through the River adapter, the reader
    directly (``read_csv``) or through ``read``, ``load`` or ``iter_chunks``. Frames of
    scikit-learn, imbalanced-learn, joblib and River are passed over too
    (:data:`_CALLERS`), so ``fit_transform``, a ``Pipeline``, ``cross_val_score`` or
    ``GridSearchCV`` (run in this process), and River's pipelines and evaluation loops,
    name the user's line that called them."""
    skipped = _skipped_dirs()
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(skipped):
        frame = frame.f_back
        level += 1
    return level  # (the outermost frame if every frame is skewlearn's)
