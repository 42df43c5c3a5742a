"""Type aliases of skewlearn's annotations, for type checkers only.

Every module imports this one under ``if TYPE_CHECKING:`` (and has ``from __future__ import
annotations``), so nothing here is imported when skewlearn runs. What each alias admits is
what the code accepts (docs/decisions.md, "Session 22: type hints on every public
function's parameters"); scikit-learn's ``_parameter_constraints`` and the functions' own
checks stay the run-time validation.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, Protocol, TypeAlias

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import sparray, spmatrix

__all__ = [
    "ArrayLike",
    "Chunks",
    "Label",
    "Matrix",
    "MatrixLike",
    "RandomStateLike",
    "StrPath",
    "SupportsTestThenTrain",
]

#: What the learners' ``fit``/``predict``/... take as ``X``: anything ``np.asarray`` reads,
#: or a SciPy sparse matrix or array (converted to CSR). Only where sparse input is accepted.
MatrixLike: TypeAlias = ArrayLike | spmatrix | sparray

#: ``X`` after validation (``validate_data``/``check_array``), as the helpers behind the
#: estimators take it: a 2-d ndarray, or a SciPy sparse matrix or array (CSR).
Matrix: TypeAlias = np.ndarray | spmatrix | sparray

#: One class label: a number, a string or a bool (an ``int``), or a NumPy scalar such as
#: ``classes_[1]``. ``pos_label`` is ``Label | None``.
Label: TypeAlias = str | int | float | np.generic

#: A seed as scikit-learn's ``check_random_state`` takes it (not a ``np.random.Generator``).
RandomStateLike: TypeAlias = int | np.integer[Any] | np.random.RandomState | None

#: A stream given in pieces: ``(X_chunk, y_chunk)`` pairs, as ``iter_chunks`` yields them.
Chunks: TypeAlias = Iterable[tuple[MatrixLike, ArrayLike]]


class SupportsTestThenTrain(Protocol):
    """What the evaluation protocols need of an online learner: ``test_then_train``."""

    def test_then_train(self, X: Any, y: Any, classes: Any = ...) -> Any: ...


#: A file system path.
StrPath: TypeAlias = str | os.PathLike[str]
