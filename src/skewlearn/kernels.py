"""Kernel functions (rbf, poly, linear) as compiled row and Gram helpers.

Every kernel learner computes its kernel values through this module, so the
conventions are defined once:

* ``"rbf"``:    :math:`k(x, y) = \\exp(-\\gamma \\|x - y\\|^2)`. A width ``σ`` written
  :math:`\\exp(-\\|x-y\\|^2 / (2\\sigma^2))` (the KOIL MATLAB code) is
  :math:`\\gamma = 1/(2\\sigma^2)`; use :func:`gamma_from_sigma`.
* ``"poly"``:   :math:`k(x, y) = (\\gamma\\, x^T y + c_0)^{p}` (``coef0`` = :math:`c_0`,
  ``degree`` = :math:`p`), scikit-learn's convention.
* ``"linear"``: :math:`k(x, y) = x^T y`.

Option strings map to the integer codes the compiled helpers take through
:data:`KERNEL_CODES`; :func:`kernel_code` validates a name and returns its code.

The compiled helpers take the batch tuple of :mod:`skewlearn._rows` (dense or CSR,
never densified) and a **dense** support-vector buffer of shape ``(capacity, d)``.
Only the ``d`` features enter a kernel: the ``bias`` entry of the tuple (the
intercept feature of linear learners) is ignored, so kernel values do not depend on
``fit_intercept``.

``kernel_buf_buf(kind, gamma, degree, coef0, a, i, b, j)``
    :math:`k(a_i, b_j)` between two dense buffer rows;
``kernel_row_to_buf(kind, gamma, degree, coef0, rows, i, buf, sq, lo, hi, out)``
    ``out[j] = k(x_i, b_j)`` for ``lo <= j < hi`` (one row of a Gram block), with
    ``sq`` the buffer rows' squared norms for rbf on CSR rows (:func:`sparse_rbf_norms`);
``gram_rows_buf(kind, gamma, degree, coef0, rows, buf, n, out)``
    the block ``out[i, j] = k(x_i, b_j)`` for every batch row.

:func:`kernel_matrix` is the validated Python entry point for arrays.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from numba import njit

from ._config import NJIT, NJIT_INLINE
from ._rows import as_rows, canonical

if TYPE_CHECKING:
    from ._typing import ArrayLike, Matrix, MatrixLike

__all__: list[str] = []  # helpers only; nothing exported at the package top level

#: Kernel name -> integer code taken by the compiled helpers.
KERNEL_CODES: dict[str, int] = {"rbf": 0, "poly": 1, "linear": 2}
RBF, POLY, LINEAR = 0, 1, 2


def kernel_code(kernel: str) -> int:
    """Integer code of a kernel name, with an error naming the choices."""
    try:
        return KERNEL_CODES[kernel]
    except (KeyError, TypeError):
        raise ValueError(
            f"kernel must be one of {sorted(KERNEL_CODES)}; got {kernel!r}. "
            "Pick one of these names."
        ) from None


def check_kernel_params(
    kernel: str, gamma: float, degree: int, coef0: float, where: str = ""
) -> int:
    """Refuse kernel settings the compiled kernels cannot use; return the kernel's code.

    ``gamma`` must be a finite real > 0, ``degree`` an integer ≥ 1 (the exponent of the
    polynomial kernel: ``int(2.5)`` would silently be 2), ``coef0`` a finite real.
    ``where`` (e.g. ``" in kernel spec {...}"``) follows the setting's name in the error.
    """
    code = kernel_code(kernel)
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Real) or not 0 < gamma < np.inf:
        raise ValueError(f"gamma{where} must be a finite real number > 0; got {gamma!r}.")
    if isinstance(degree, bool) or not isinstance(degree, numbers.Integral) or degree < 1:
        raise ValueError(
            f"degree{where} must be an integer >= 1 (the exponent of the polynomial "
            f"kernel); got {degree!r}."
        )
    if isinstance(coef0, bool) or not isinstance(coef0, numbers.Real) or not np.isfinite(coef0):
        raise ValueError(f"coef0{where} must be a finite real number; got {coef0!r}.")
    return code


def gamma_from_sigma(sigma: float) -> float:
    """The ``γ`` of :math:`\\exp(-\\gamma\\|x-y\\|^2)` for a Gaussian width ``σ``:
    :math:`\\gamma = 1 / (2\\sigma^2)`.

    ``sigma`` must be a finite real > 0 whose ``γ`` is a finite float64 > 0 (about
    1e-154 ≤ σ ≤ 1e154); beyond that ``2σ²`` underflows or overflows, and ``γ`` would be
    inf, 0 (a constant kernel) or a division by zero.

    >>> gamma_from_sigma(0.5)
    2.0
    """
    if isinstance(sigma, bool) or not isinstance(sigma, numbers.Real) or not 0 < sigma < np.inf:
        raise ValueError(f"sigma must be a finite real number > 0; got {sigma!r}.")
    two_s2 = 2.0 * float(sigma) * float(sigma)
    gamma = 1.0 / two_s2 if two_s2 > 0.0 else np.inf
    if not 0.0 < gamma < np.inf:
        raise ValueError(
            f"sigma={sigma!r} gives gamma = 1 / (2 sigma^2) = {gamma!r}, which float64 cannot "
            "use as a kernel width (2 sigma^2 under- or overflows). Rescale the features so "
            "that a sigma between about 1e-150 and 1e150 fits them."
        )
    return gamma


def data_variance(X: Matrix) -> float:
    """Variance of all ``n · d`` entries of ``X`` (scikit-learn's ``gamma="scale"`` uses it).

    Dense ``X``: ``X.var()``. Sparse ``X``: the same quantity with the implicit zeros
    counted, computed in two passes over the stored values: the mean
    :math:`m = \\sum v / (n d)`, then
    :math:`(\\sum_{\\text{stored}} (v - m)^2 + (n d - \\mathrm{nnz})\\, m^2) / (n d)`.
    The one-pass :math:`E[x^2] - E[x]^2` (scikit-learn's ``SVC`` on sparse input)
    cancels catastrophically when the values carry an offset (at 1e8 it turns a variance
    of 1 into 0 or a negative number); the two-pass form agrees with the dense
    ``X.var()`` to rounding. Duplicate stored entries are summed first.

    The variance is at most :math:`\\max|x|^2`, finite for every row skewlearn accepts
    (:func:`skewlearn.base.max_abs_value`), but the sum of the squares can overflow
    first (60 × 3 entries near that limit): the variance is then :math:`c^2` times that
    of :math:`X / c`, :math:`c = \\max|x|`. A finite variance is returned as computed.

    >>> import scipy.sparse as sp
    >>> X = np.array([[1e8 + 1.0, 0.0], [1e8 - 1.0, 0.0]])
    >>> bool(data_variance(sp.csr_matrix(X)) == X.var())
    True
    """
    with np.errstate(over="ignore"):
        var = _variance(X)
    if np.isinf(var):  # the squares' sum overflowed; the variance itself may not
        c = float(abs(X).max())
        var = c * float(_variance(X / c)) * c  # Var(X / c) <= 1; Python floats (float64)
    return var


def _variance(X: Matrix) -> float:
    """:func:`data_variance` as summed, without its guard against overflow."""
    if not sp.issparse(X):
        return X.var()
    X = canonical(sp.csr_matrix(X))
    size = X.shape[0] * X.shape[1]
    data = X.data
    mean = data.sum() / size
    dev = data - mean
    return (np.sum(dev * dev) + (size - data.size) * (mean * mean)) / size


@njit(**NJIT_INLINE)
def kernel_from_parts(kind, gamma, degree, coef0, dot, sqdist):
    """Kernel value from the inner product ``dot`` and the squared distance ``sqdist``
    (each kernel reads only the one it needs)."""
    if kind == 0:
        return np.exp(-gamma * sqdist)
    if kind == 1:
        base = gamma * dot + coef0
        p = int(degree)
        r = 1.0
        for _ in range(p):
            r *= base
        return r
    return dot


#: The fast CSR form of ``‖x − b‖²`` (``‖b‖²`` plus a correction at each non-zero of ``x``)
#: cancels when ``x`` is close to ``b`` compared with ``‖b‖`` (features far from 0, or
#: near-duplicate rows): its rounding error is a few ulps of ``‖b‖²``. Below this fraction
#: of ``‖b‖²`` the distance is recomputed column by column (:func:`_sparse_sqdist_exact`),
#: which gives the dense input's value to the last bit.
SPARSE_CANCEL = 2.0**-16


@njit(**NJIT_INLINE)
def _sparse_sqdist_exact(data, indices, lo, hi, b, d):
    """``‖x − b‖²`` for the CSR row ``data/indices[lo:hi]``, column by column in the order
    of the dense loop (so the dense row's exact value), merging the row's sorted indices:
    O(d + nnz). CSR rows reach the kernels canonical (:func:`skewlearn._rows.as_rows`).
    Used when the fast form cancels (:data:`SPARSE_CANCEL`) or its squares overflow."""
    acc = 0.0
    p = lo
    for c in range(d):
        if p < hi and indices[p] == c:
            diff = data[p] - b[c]
            p += 1
        else:
            diff = -b[c]
        acc += diff * diff
    return acc


@njit(**NJIT_INLINE)
def _dense_part(kind, x, b, d):
    """The part of :math:`k(x, b)` that reads the rows, for two dense rows: ``‖x − b‖²``
    (rbf) or ``xᵀb`` (poly, linear). Contiguous views let LLVM vectorise the loop."""
    acc = 0.0
    if kind == 0:
        for c in range(d):
            diff = x[c] - b[c]
            acc += diff * diff
    else:
        for c in range(d):
            acc += x[c] * b[c]
    return acc


@njit(**NJIT_INLINE)
def kernel_buf_buf(kind, gamma, degree, coef0, a, i, b, j):
    """:math:`k(a_i, b_j)` between rows of two dense buffers (``a`` may be ``b``)."""
    part = _dense_part(kind, a[i], b[j], a.shape[1])
    return kernel_from_parts(kind, gamma, degree, coef0, part, part)


@njit(**NJIT_INLINE)
def kernel_transform(kind, gamma, degree, coef0, out, lo, hi):
    """In place ``out[j] = kernel(out[j])`` for ``lo <= j < hi``, where ``out`` holds
    squared distances (rbf) or inner products (poly, linear). The branch on ``kind`` sits
    outside the loops, so LLVM vectorises them (``exp`` included)."""
    if kind == 0:
        for j in range(lo, hi):
            out[j] = np.exp(-gamma * out[j])
    elif kind == 1:
        p = int(degree)
        for j in range(lo, hi):
            base = gamma * out[j] + coef0
            r = 1.0
            for _ in range(p):
                r *= base
            out[j] = r


@njit(**NJIT)
def row_sq(b):
    """``‖b‖²`` of one buffer row. Not inlined, on purpose: every caller then runs the same
    compiled loop, so a stored norm does not depend on where it was computed (a batch
    boundary, a prediction) and results stay bit-identical across them."""
    bb = 0.0
    for c in range(b.shape[0]):
        bb += b[c] * b[c]
    return bb


@njit(**NJIT_INLINE)
def sparse_rbf_norms(kind, rows, buf, n):
    """``‖buf[j]‖²`` for ``j < n`` when :func:`kernel_row_to_buf` will read them (the rbf
    kernel on CSR rows; length ``buf.shape[0]``, the rest zero), else an empty array. A
    compiled pass computes them once, and :func:`skewlearn.kernel.budget.store_row` keeps
    them current as it stores rows: O(n·d) per pass instead of per row."""
    if kind != 0 or not rows[4]:
        return np.zeros(0)
    sq = np.zeros(buf.shape[0])
    for j in range(n):
        sq[j] = row_sq(buf[j])
    return sq


@njit(**NJIT_INLINE)
def kernel_row_to_buf(kind, gamma, degree, coef0, rows, i, buf, sq, lo, hi, out):
    """``out[j] = k(x_i, buf[j])`` for ``lo <= j < hi``: batch row ``i`` against a block of
    buffer rows, in two vectorisable passes (distances or inner products, then the kernel).

    ``sq`` holds ``sq[j] = ‖buf[j]‖²`` (:func:`row_sq`) for the rbf kernel on CSR rows
    (:func:`sparse_rbf_norms`), so a distance reads only the row's non-zeros: O(nnz), not
    O(d), per buffer row. Other kernels and dense rows read no ``sq`` (an empty array).

    The loops repeat :func:`_dense_part` on purpose: routed through it
    (one inlined call per buffer row) the kernel perceptron ran 55 % slower (0.41 → 0.64 CPU s
    on 200k dense rows, session 4), so this hot loop keeps its own copy.
    """
    data, indices, indptr, d, sparse, bias = rows
    if sparse:
        for j in range(lo, hi):
            b = buf[j]
            acc = 0.0
            if kind == 0:
                bb = sq[j]
                acc = bb
                for p in range(indptr[i], indptr[i + 1]):
                    c = indices[p]
                    diff = data[p] - b[c]
                    acc += diff * diff - b[c] * b[c]
                if not (acc >= SPARSE_CANCEL * bb and acc < np.inf):
                    # cancellation (or overflow: inf - inf): add up column by column
                    acc = _sparse_sqdist_exact(data, indices, indptr[i], indptr[i + 1], b, d)
            else:
                for p in range(indptr[i], indptr[i + 1]):
                    acc += data[p] * b[indices[p]]
            out[j] = acc
    else:
        x = data[i * d : (i + 1) * d]
        for j in range(lo, hi):
            b = buf[j]
            acc = 0.0
            if kind == 0:
                for c in range(d):
                    diff = x[c] - b[c]
                    acc += diff * diff
            else:
                for c in range(d):
                    acc += x[c] * b[c]
            out[j] = acc
    kernel_transform(kind, gamma, degree, coef0, out, lo, hi)


@njit(**NJIT)
def gram_rows_buf(kind, gamma, degree, coef0, rows, buf, n, out):
    """``out[i, j] = k(x_i, buf[j])`` for every batch row ``i`` and ``j < n``."""
    sq = sparse_rbf_norms(kind, rows, buf, n)
    for i in range(out.shape[0]):
        kernel_row_to_buf(kind, gamma, degree, coef0, rows, i, buf, sq, 0, n, out[i])


def kernel_matrix(
    X: MatrixLike,
    Y: ArrayLike,
    kernel: str = "rbf",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 1.0,
) -> np.ndarray:
    """Kernel matrix ``K[i, j] = k(X[i], Y[j])`` with the conventions of this module.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n, d)
        Dense or CSR; never densified.
    Y : array-like of shape (m, d)
        Dense (a support-vector buffer); a sparse ``Y`` is refused (pass ``Y.toarray()``).
    kernel : {"rbf", "poly", "linear"}, default="rbf"
    gamma : float, default=1.0
        Finite, > 0: the rbf width, or the scale of ``x^T y`` for poly.
    degree : int, default=3
        An integer ≥ 1, poly only.
    coef0 : float, default=1.0
        Finite, poly only.

    Returns
    -------
    ndarray of shape (n, m)

    Examples
    --------
    >>> import numpy as np
    >>> K = kernel_matrix(np.array([[0.0, 0.0]]), np.array([[1.0, 1.0]]), "rbf", gamma=0.5)
    >>> bool(np.isclose(K[0, 0], np.exp(-1.0)))
    True
    """
    code = check_kernel_params(kernel, gamma, degree, coef0)
    if sp.issparse(Y):
        raise ValueError(
            f"Y must be dense (the kernels read it as a support-vector buffer); got a sparse "
            f"{type(Y).__name__} of shape {np.shape(Y)}. Pass Y.toarray(), or swap X and Y and "
            "transpose the result when X is the small one."
        )
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
    Y = np.ascontiguousarray(Y, dtype=np.float64)
    if X.ndim != 2 or Y.ndim != 2 or X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must be 2-D with the same number of columns; got shapes {X.shape} "
            f"and {Y.shape}."
        )
    for name, A in (("X", X.data if sp.issparse(X) else X), ("Y", Y)):
        if not np.isfinite(A).all():
            raise ValueError(
                f"{name} contains NaN or infinity; kernel values of such rows are undefined. "
                "Remove or impute those values first."
            )
    out = np.empty((X.shape[0], Y.shape[0]), dtype=np.float64)
    gram_rows_buf(
        code, float(gamma), int(degree), float(coef0), as_rows(X, False), Y, Y.shape[0], out
    )
    return out
