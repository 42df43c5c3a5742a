"""Row accessors shared by every compiled learner.

A batch reaches a kernel as one tuple ``rows = (data, indices, indptr, d, sparse, bias)``:

* dense input: ``data`` is the C-ordered matrix raveled (a view, no copy), row ``i``
  is ``data[i*d:(i+1)*d]``; ``indices`` and ``indptr`` are empty;
* CSR input: the three CSR arrays as they are (never densified).

``data`` is float64, or float32 for learners that take float32 without a copy
(``_input_dtypes`` in :mod:`skewlearn.base`): every accessor reads an entry into float64
before any arithmetic, so float32 rows give exactly the results of their float64 copy.

``bias`` is the value of the implicit constant feature (1.0 when the learner fits an
intercept, 0.0 otherwise). Weight vectors have length ``d + 1``; the last entry is the
intercept, so every update rule treats it exactly like any other weight, as in the
papers' augmented-vector notation ``x ← [x, 1]``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numba import njit

from ._config import NJIT, NJIT_INLINE

_EMPTY_INDEX = np.zeros(0, dtype=np.int32)


def as_rows(X, fit_intercept: bool) -> tuple:
    """Pack a validated float matrix (dense C-contiguous or CSR) into the kernel tuple."""
    bias = 1.0 if fit_intercept else 0.0
    if sp.issparse(X):
        X = X.tocsr()
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
        return (X.data, X.indices, X.indptr, X.shape[1], True, bias)
    X = np.ascontiguousarray(X)
    return (X.reshape(-1), _EMPTY_INDEX, _EMPTY_INDEX, X.shape[1], False, bias)


def n_rows(rows: tuple) -> int:
    """Number of samples in a kernel tuple."""
    data, indices, indptr, d, sparse, _ = rows
    if sparse:
        return len(indptr) - 1
    return data.shape[0] // d if d > 0 else 0


@njit(**NJIT_INLINE)
def row_span(rows, i):
    """Return ``(start, stop)`` of row ``i`` in ``data``."""
    data, indices, indptr, d, sparse, bias = rows
    if sparse:
        return indptr[i], indptr[i + 1]
    return i * d, (i + 1) * d


@njit(**NJIT_INLINE)
def row_col(rows, p, start):
    """Feature index of the entry at position ``p`` of ``data`` in a row starting at ``start``."""
    data, indices, indptr, d, sparse, bias = rows
    if sparse:
        return indices[p]
    return p - start


@njit(**NJIT_INLINE)
def row_dot(w, rows, i):
    """:math:`w^T [x_i, b]` for weights of length ``d + 1``."""
    data, indices, indptr, d, sparse, bias = rows
    s = 0.0
    if sparse:
        for p in range(indptr[i], indptr[i + 1]):
            s += w[indices[p]] * data[p]
    else:
        base = i * d
        for j in range(d):
            s += w[j] * data[base + j]
    return s + w[d] * bias


@njit(**NJIT_INLINE)
def row_sqnorm(rows, i):
    """:math:`\\|[x_i, b]\\|^2`."""
    data, indices, indptr, d, sparse, bias = rows
    s = 0.0
    if sparse:
        for p in range(indptr[i], indptr[i + 1]):
            x = np.float64(data[p])  # float32 rows: square in float64
            s += x * x
    else:
        base = i * d
        for j in range(d):
            x = np.float64(data[base + j])
            s += x * x
    return s + bias * bias


@njit(**NJIT_INLINE)
def row_axpy(a, rows, i, w):
    """In place :math:`w \\leftarrow w + a [x_i, b]`."""
    data, indices, indptr, d, sparse, bias = rows
    if sparse:
        for p in range(indptr[i], indptr[i + 1]):
            w[indices[p]] += a * data[p]
    else:
        base = i * d
        for j in range(d):
            w[j] += a * data[base + j]
    w[d] += a * bias


@njit(**NJIT_INLINE)
def row_wdot(s, rows, i):
    """:math:`\\sum_j s_j x_{ij}^2` (plus ``s[d] * b^2``): a diagonal quadratic form."""
    data, indices, indptr, d, sparse, bias = rows
    acc = 0.0
    if sparse:
        for p in range(indptr[i], indptr[i + 1]):
            acc += s[indices[p]] * data[p] * data[p]
    else:
        base = i * d
        for j in range(d):
            acc += s[j] * data[base + j] * data[base + j]
    return acc + s[d] * bias * bias


@njit(**NJIT_INLINE)
def row_to_dense(rows, i, out):
    """Write row ``i`` (with its bias entry) into the dense buffer ``out`` of length ``d + 1``."""
    data, indices, indptr, d, sparse, bias = rows
    if sparse:
        out[:] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            out[indices[p]] = data[p]
    else:
        base = i * d
        for j in range(d):
            out[j] = data[base + j]
    out[d] = bias


@njit(**NJIT)
def linear_scores(w, rows, out):
    """Decision values :math:`w^T [x_i, b]` for every row of a batch."""
    for i in range(out.shape[0]):
        out[i] = row_dot(w, rows, i)
