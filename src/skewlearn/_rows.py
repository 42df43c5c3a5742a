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


def canonical(X):
    """A sparse ``X`` in SciPy's canonical format (each row's repeated entries summed,
    indices sorted), copied first so the caller's matrix is never changed. Canonical and
    dense input are returned as they are. The compiled kernels, libsvm and the two-pass
    variance all read a column at most once per row."""
    if sp.issparse(X) and not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def as_rows(X, fit_intercept: bool) -> tuple:
    """Pack a validated float matrix (dense C-contiguous or CSR) into the kernel tuple."""
    bias = 1.0 if fit_intercept else 0.0
    if X.__class__ is np.ndarray and X.flags.c_contiguous:  # (a one-row call: ~0.4 us less)
        return (X.reshape(-1), _EMPTY_INDEX, _EMPTY_INDEX, X.shape[1], False, bias)
    if sp.issparse(X):
        X = canonical(X.tocsr())
        return (X.data, X.indices, X.indptr, X.shape[1], True, bias)
    X = np.ascontiguousarray(X)
    return (X.reshape(-1), _EMPTY_INDEX, _EMPTY_INDEX, X.shape[1], False, bias)


def as_row(values, fit_intercept: bool) -> tuple:
    """One dense row given as a sequence of floats, packed as :func:`as_rows` packs the
    1-row matrix of them (the same kernel types, so the same results), without building
    that matrix: River's adapter scores one feature dict at a time."""
    bias = 1.0 if fit_intercept else 0.0
    return (
        np.array(values, dtype=np.float64),
        _EMPTY_INDEX,
        _EMPTY_INDEX,
        len(values),
        False,
        bias,
    )


def n_rows(rows: tuple) -> int:
    """Number of samples in a kernel tuple."""
    data, indices, indptr, d, sparse, _ = rows
    if sparse:
        return len(indptr) - 1
    return data.shape[0] // d if d > 0 else 0


# The accessors below index ``rows`` in place (``rows[0][p]``) instead of unpacking it into
# local names. An array taken out of the tuple into a variable is a new reference: numba
# increments and decrements its count (atomic operations) around every inlined call, and
# with a loop in between LLVM's reference-count pruning cannot remove the pair, so a kernel
# calling several accessors per row paid ~80 ns a row for counting alone (PA at d = 10:
# 105 ms per million rows against 20 ms; session 11). A temporary used in one expression
# is released in the same basic block, where the pruning does remove it. The arithmetic,
# and so every result, is unchanged: rows[0] = data, [1] = indices, [2] = indptr, [3] = d,
# [4] = sparse, [5] = bias.


@njit(**NJIT_INLINE)
def row_span(rows, i):
    """Return ``(start, stop)`` of row ``i`` in ``data``."""
    if rows[4]:
        return rows[2][i], rows[2][i + 1]
    return i * rows[3], (i + 1) * rows[3]


@njit(**NJIT_INLINE)
def row_col(rows, p, start):
    """Feature index of the entry at position ``p`` of ``data`` in a row starting at ``start``."""
    if rows[4]:
        return rows[1][p]
    return p - start


@njit(**NJIT_INLINE)
def row_feature_dot(w, rows, i):
    """:math:`\\sum_{j<d} w_j x_{ij}`: the features' part of :func:`row_dot`."""
    s = 0.0
    if rows[4]:
        for p in range(rows[2][i], rows[2][i + 1]):
            s += w[rows[1][p]] * rows[0][p]
    else:
        base = i * rows[3]
        for j in range(rows[3]):
            s += w[j] * rows[0][base + j]
    return s


@njit(**NJIT_INLINE)
def row_dot(w, rows, i):
    """:math:`w^T [x_i, b]` for weights of length ``d + 1``."""
    return row_feature_dot(w, rows, i) + w[rows[3]] * rows[5]


@njit(**NJIT_INLINE)
def scaled_row_dot(w, scale, rows, i):
    """:math:`s \\sum_{j<d} v_j x_{ij} + w_d b` for ``w = [v, w_d]`` whose feature weights
    are ``scale`` times ``v`` (OGD's L2 decay kept as a scale): with ``scale`` exactly 1,
    :func:`row_dot` bit for bit."""
    return scale * row_feature_dot(w, rows, i) + w[rows[3]] * rows[5]


@njit(**NJIT_INLINE)
def row_feature_sqnorm(rows, i):
    """:math:`\\sum_{j<d} x_{ij}^2`: the features' part of :func:`row_sqnorm`."""
    s = 0.0
    if rows[4]:
        for p in range(rows[2][i], rows[2][i + 1]):
            x = np.float64(rows[0][p])  # float32 rows: square in float64
            s += x * x
    else:
        base = i * rows[3]
        for j in range(rows[3]):
            x = np.float64(rows[0][base + j])
            s += x * x
    return s


@njit(**NJIT_INLINE)
def row_sqnorm(rows, i):
    """:math:`\\|[x_i, b]\\|^2`."""
    return row_feature_sqnorm(rows, i) + rows[5] * rows[5]


@njit(**NJIT_INLINE)
def row_feature_axpy(a, rows, i, w):
    """In place :math:`w_j \\leftarrow w_j + a x_{ij}` for the features ``j < d`` (the
    intercept's entry ``w[d]`` is left alone)."""
    if rows[4]:
        for p in range(rows[2][i], rows[2][i + 1]):
            w[rows[1][p]] += a * rows[0][p]
    else:
        base = i * rows[3]
        for j in range(rows[3]):
            w[j] += a * rows[0][base + j]


@njit(**NJIT_INLINE)
def row_axpy(a, rows, i, w):
    """In place :math:`w \\leftarrow w + a [x_i, b]`."""
    row_feature_axpy(a, rows, i, w)
    w[rows[3]] += a * rows[5]


@njit(**NJIT_INLINE)
def row_wdot(s, rows, i):
    """:math:`\\sum_j s_j x_{ij}^2` (plus ``s[d] * b^2``): a diagonal quadratic form."""
    acc = 0.0
    if rows[4]:
        for p in range(rows[2][i], rows[2][i + 1]):
            acc += s[rows[1][p]] * rows[0][p] * rows[0][p]
    else:
        base = i * rows[3]
        for j in range(rows[3]):
            acc += s[j] * rows[0][base + j] * rows[0][base + j]
    return acc + s[rows[3]] * rows[5] * rows[5]


@njit(**NJIT_INLINE)
def row_to_dense(rows, i, out):
    """Write row ``i`` (with its bias entry) into the dense buffer ``out`` of length ``d + 1``."""
    if rows[4]:
        out[:] = 0.0
        for p in range(rows[2][i], rows[2][i + 1]):
            out[rows[1][p]] = rows[0][p]
    else:
        base = i * rows[3]
        for j in range(rows[3]):
            out[j] = rows[0][base + j]
    out[rows[3]] = rows[5]


@njit(**NJIT)
def linear_scores(w, rows, out):
    """Decision values :math:`w^T [x_i, b]` for every row of a batch."""
    for i in range(out.shape[0]):
        out[i] = row_dot(w, rows, i)


@njit(**NJIT)
def scaled_linear_scores(w, scale, rows, out):
    """Decision values :func:`scaled_row_dot` for every row of a batch."""
    for i in range(out.shape[0]):
        out[i] = scaled_row_dot(w, scale, rows, i)
