"""Nyström and class-stratified multi-Nyström feature maps.

The Nyström method [1]_ approximates a kernel matrix from ``m`` landmark points ``L``:
with :math:`C = K(X, L)` (n × m) and :math:`W = K(L, L)` (m × m),

.. math::  \\tilde K = C\\, W_k^{+} C^T ,\\qquad
           \\Phi(x) = K(x, L)\\, U_k \\Lambda_k^{-1/2}           \\quad \\text{(Eqs. 6–8 of [1]_)}

where :math:`W_k = U_k \\Lambda_k U_k^T` is the best rank-``k`` approximation of ``W``
(its top ``k`` eigenpairs; ``W`` is symmetric positive semi-definite, so its SVD is its
eigendecomposition). Then :math:`\\Phi(x)^T \\Phi(x') = \\tilde K(x, x')`, and a linear model
on :math:`\\Phi` is a kernel model on :math:`\\tilde K`.

The multi-Nyström mixture [1]_ draws ``M`` landmark subsets :math:`L_m`, each with its own
kernel :math:`k_m`, and combines the approximations with weights :math:`\\mu` on the simplex:

.. math::  \\tilde K_\\mu = \\sum_{m=1}^{M} \\mu_m\\, C_m W_{m,k}^{+} C_m^T ,\\qquad
           \\Phi_\\mu(x) = [\\sqrt{\\mu_1}\\,\\Phi_1(x), \\dots, \\sqrt{\\mu_M}\\,\\Phi_M(x)]
           \\quad \\text{(Eqs. 9–13 of [1]_)}

Landmarks are drawn uniformly without replacement (``sampling="uniform"``, the standard
method) or by **class-stratified undersampling** (``sampling="stratified"``, the paper's
scheme): every class gets an equal share of the ``m`` landmarks; a class smaller than its
share gives all its points and the rest is shared among the larger classes. With a rare
positive class this keeps every positive and undersamples the majority.

Numerics. The paper replaces ``W`` by :math:`W + \\varepsilon I` ("jitter", Section 3.2) to
avoid ill-conditioning; ``jitter`` is that :math:`\\varepsilon`. The pseudo-inverse square
root then keeps the top-``k`` eigenvalues above ``max(λ) · 1e-12`` (smaller ones, and any
negative rounding noise, are dropped, so a map can have fewer than ``k`` columns;
``n_components_`` says how many). The eigenpairs come from :func:`scipy.linalg.eigh`
restricted to the top ``k`` (``subset_by_index``); each eigenvector's sign is then fixed
(largest-magnitude entry positive, :func:`fix_signs`), so that the features do not flip sign
with rounding-level changes of ``W``.

References
----------
.. [1] "Multi-Nyström method based on multiple kernel learning for large scale imbalanced
   classification" (seed 003): Sections 2.3 and 3.1.
"""

from __future__ import annotations

import itertools
import numbers
import warnings
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed, effective_n_jobs
from scipy.linalg import eigh
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from .._stack import user_stacklevel
from ..base import VersionedPickleMixin, _scan_values, _text_in_x_hint
from ..base import check_magnitude as _check_magnitude
from ..kernels import KERNEL_CODES, check_kernel_params, data_variance, kernel_matrix

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sklearn.pipeline import Pipeline

    from .._typing import ArrayLike, Matrix, MatrixLike, RandomStateLike

__all__ = ["MultiNystroem", "StratifiedNystroem", "nystroem_linear_svm"]

#: Eigenvalues of W at or below this fraction of the largest are dropped.
EIG_RTOL = 1e-12

_KERNEL_KEYS = {"kernel", "gamma", "degree", "coef0"}


# --------------------------------------------------------------------------- helpers
def stratified_counts(class_sizes: np.ndarray, n_landmarks: int) -> np.ndarray:
    """How many landmarks each class gives under balanced (stratified) sampling.

    Classes are served from the smallest up; each gets ``ceil(remaining / classes left)``
    or all its points if it has fewer, so shortfalls of small classes go to larger ones.

    >>> stratified_counts(np.array([30, 1000]), 100).tolist()
    [30, 70]
    >>> stratified_counts(np.array([500, 1000]), 101).tolist()
    [51, 50]
    """
    sizes = np.asarray(class_sizes, dtype=np.int64)
    out = np.zeros(len(sizes), dtype=np.int64)
    remaining = min(int(n_landmarks), int(sizes.sum()))
    order = np.argsort(sizes, kind="stable")
    for left, c in zip(range(len(sizes), 0, -1), order):
        take = min(int(sizes[c]), -(-remaining // left))
        out[c] = take
        remaining -= take
    return out


def draw_landmarks(
    n_samples: int,
    n_landmarks: int,
    sampling: str,
    y: ArrayLike | None,
    rng: np.random.RandomState,
) -> np.ndarray:
    """Row indices of ``n_landmarks`` landmarks, drawn without replacement.

    ``sampling="uniform"``: uniformly from all rows. ``"stratified"``: per class, the
    counts of :func:`stratified_counts`, uniformly within each class (classes in sorted
    label order). ``rng`` is a ``numpy.random.RandomState``.
    """
    if sampling == "uniform":
        return rng.choice(n_samples, size=n_landmarks, replace=False)
    labels, inverse = np.unique(y, return_inverse=True)
    counts = stratified_counts(np.bincount(inverse, minlength=len(labels)), n_landmarks)
    parts = [
        rng.choice(np.flatnonzero(inverse == c), size=counts[c], replace=False)
        for c in range(len(labels))
    ]
    return np.concatenate(parts)


def scale_gamma(X: Matrix) -> float:
    """scikit-learn's ``gamma="scale"``: :math:`1 / (d \\cdot \\mathrm{Var}(X))`, 1/d if Var = 0.

    Var is over all entries (:func:`skewlearn.kernels.data_variance`: for sparse ``X`` the
    implicit zeros count, computed in two passes so that it equals the dense value).
    """
    var = data_variance(X)
    d = X.shape[1]
    if not var > 0:
        return 1.0 / d
    with np.errstate(over="ignore"):
        gamma = float(1.0 / (d * var))
    if not np.isfinite(gamma):
        raise ValueError(
            f'gamma="scale" = 1/(d·Var X) overflows float64: the features\' variance is {var:.3g}. '
            "Scale the features (e.g. sklearn.preprocessing.StandardScaler) or give gamma."
        )
    return gamma


def resolve_kernel(spec: dict, X: Matrix) -> dict:
    """A kernel spec with defaults filled in and ``gamma=None`` replaced by :func:`scale_gamma`."""
    if not isinstance(spec, dict):
        raise TypeError(
            f"each kernel must be a dict such as {{'kernel': 'rbf', 'gamma': 0.5}}; got "
            f"{type(spec).__name__} {spec!r}."
        )
    unknown = set(spec) - _KERNEL_KEYS
    if unknown:
        raise ValueError(
            f"kernel spec {spec!r} has unknown keys {sorted(unknown)}; allowed keys are "
            f"{sorted(_KERNEL_KEYS)}."
        )
    out = {"kernel": "rbf", "gamma": None, "degree": 3, "coef0": 1.0, **spec}
    if out["gamma"] is None:
        out["gamma"] = scale_gamma(X)
    check_kernel_params(out["kernel"], out["gamma"], out["degree"], out["coef0"],
                        f" in kernel spec {spec!r}")  # fmt: skip
    return {
        "kernel": out["kernel"],
        "gamma": float(out["gamma"]),
        "degree": int(out["degree"]),
        "coef0": float(out["coef0"]),
    }


def nystroem_normalization(W: np.ndarray, rank: int, jitter: float) -> tuple:
    """:math:`U_k \\Lambda_k^{-1/2}` of :math:`W + \\varepsilon I` and the kept eigenvalues.

    Top-``rank`` eigenpairs by :func:`scipy.linalg.eigh` (``subset_by_index``); eigenvalues
    at or below ``max(λ) · EIG_RTOL`` are dropped (largest first in the result); the sign
    of each eigenvector is fixed by :func:`fix_signs`.
    """
    m = W.shape[0]
    Wj = W + jitter * np.eye(m) if jitter > 0 else W
    k = min(int(rank), m)
    vals, vecs = eigh(Wj, subset_by_index=[m - k, m - 1])
    vals, vecs = vals[::-1], vecs[:, ::-1]
    top = vals[0] if len(vals) else 0.0
    keep = vals > max(top, 0.0) * EIG_RTOL
    if not keep.any():
        keep = vals > 0
    vals, vecs = vals[keep], vecs[:, keep]
    return fix_signs(vecs) / np.sqrt(vals), vals


def fix_signs(vecs: np.ndarray) -> np.ndarray:
    """The columns of ``vecs`` with their signs fixed: each column's largest-magnitude entry
    is made positive (the first such entry when several tie), as in scikit-learn's
    ``svd_flip``.

    An eigenvector's sign is arbitrary (LAPACK's choice can change with a 1-ulp change of
    the matrix), and a flipped column flips the matching feature column of every map.

    >>> fix_signs(np.array([[0.6, 0.8], [-0.8, 0.6]]))
    array([[-0.6,  0.8],
           [ 0.8,  0.6]])
    """
    top = np.argmax(np.abs(vecs), axis=0)
    return vecs * np.where(vecs[top, np.arange(vecs.shape[1])] < 0, -1.0, 1.0)


def fit_map(
    X: Matrix,
    y: ArrayLike | None,
    spec: dict,
    n_landmarks: int,
    rank: int | None,
    sampling: str,
    jitter: float,
    rng: np.random.RandomState,
) -> dict:
    """Draw landmarks and build one Nyström map; returns a dict of its fitted arrays."""
    idx = draw_landmarks(X.shape[0], min(n_landmarks, X.shape[0]), sampling, y, rng)
    return factor_subset(X, idx, spec, rank, jitter)


def check_kernel_values(values: np.ndarray, spec: dict, what: str) -> None:
    """A ValueError naming the kernel when ``values`` (kernel values, or features made
    from them) are not all finite: a polynomial kernel overflows float64 at large
    ``|gamma x'y + coef0|^degree`` (rbf values stay in [0, 1])."""
    if not _scan_values(np.ravel(values, order="K"))[1]:
        params = f"gamma={spec['gamma']:.3g}"
        if spec["kernel"] == "poly":
            params += f", degree={spec['degree']}, coef0={spec['coef0']:g}"
        raise ValueError(
            f"{what} overflowed float64 (inf or NaN) with the {spec['kernel']} kernel "
            f"({params}). Scale the features (e.g. sklearn.preprocessing.StandardScaler), or "
            "use a smaller degree, gamma or coef0."
        )


#: the largest 32-bit float: libsvm (scikit-learn's SVC) caches kernel values as ``float``
FLOAT32_MAX = float(np.finfo(np.float32).max)


def libsvm_kernel_error(kernel: str, largest: float, detail: str, other_fix: str) -> ValueError:
    """The ValueError that restates libsvm's "dual coefficients or intercepts are not
    finite" when the kernel values ``largest`` (an upper bound of ``|K|``) explain it.

    libsvm stores kernel values as 32-bit floats, so values above ~3.4e38 — finite in
    float64 — become inf in its cache; values that overflow float64 are named as such.
    ``detail`` (kernel parameters, ``|x|``) completes the sentence's parenthesis;
    ``other_fix`` (e.g. ``", or use a smaller degree"``, or empty) follows the scaling fix.
    """
    if largest <= FLOAT32_MAX:
        cause = f" although the {kernel} kernel values are at most {largest:.3g}"
    elif np.isfinite(largest):
        cause = (
            f": the {kernel} kernel values reach {largest:.3g}, beyond {FLOAT32_MAX:.3g}, "
            "the largest 32-bit float, in which libsvm stores them"
        )
    else:
        cause = f": the {kernel} kernel values overflow float64"
    return ValueError(
        f"libsvm's solution became non-finite{cause} ({detail}). Scale the features "
        f"(e.g. sklearn.preprocessing.StandardScaler){other_fix}."
    )


def factor_subset(X: Matrix, idx: np.ndarray, spec: dict, rank: int | None, jitter: float) -> dict:
    """Nyström factors of the landmarks ``X[idx]``: a dict of the fitted arrays."""
    L = X[idx]
    L = L.toarray() if sp.issparse(L) else np.ascontiguousarray(L)
    W = kernel_matrix(L, L, spec["kernel"], spec["gamma"], spec["degree"], spec["coef0"])
    check_kernel_values(W, spec, "The kernel matrix W of the landmarks")
    k = len(idx) if rank is None else min(int(rank), len(idx))
    norm, vals = nystroem_normalization(W, k, jitter)
    return {"indices": idx, "landmarks": L, "normalization": norm, "eigenvalues": vals}


def kernel_block(X: Matrix, L: np.ndarray, spec: dict) -> np.ndarray:
    """``K(X, L)`` with the conventions of :mod:`skewlearn.kernels`.

    Dense ``X`` goes through one matrix product (BLAS, many threads):
    :math:`\\|x - l\\|^2 = \\|x\\|^2 + \\|l\\|^2 - 2 x^T l` (clipped at 0) for rbf,
    :math:`x^T l` for poly and linear; CSR ``X`` goes through
    :func:`skewlearn.kernels.kernel_matrix`, never densified. The two agree to rounding
    (tests/batch/test_nystrom.py).

    The expansion loses about ``γ·ε·(‖x‖² + ‖l‖²)`` of the exponent to cancellation, all
    of it for features far from 0 (at an offset of 1e7 kernel values were off by 0.4).
    When ``γ·max‖l‖²`` exceeds :data:`SHIFT_ABOVE` both sides are first shifted by the
    landmarks' mean (distances do not change); the decision depends on the landmarks only,
    so every row of a model is computed the same way. Pairs that are still far from that
    centre (landmarks in clusters far apart) are recomputed from their differences
    (:func:`_exact_far_pairs`).
    """
    if sp.issparse(X):
        return kernel_matrix(X, L, spec["kernel"], spec["gamma"], spec["degree"], spec["coef0"])
    if spec["kernel"] == "rbf":
        gamma = spec["gamma"]
        sq_l = np.einsum("ij,ij->i", L, L)
        if gamma * float(sq_l.max()) > SHIFT_ABOVE:
            # far from 0 the expansion cancels: measure from the landmarks' mean instead
            centre = L.mean(axis=0)
            X, L = X - centre, L - centre
            sq_l = np.einsum("ij,ij->i", L, L)
        sq_x = np.einsum("ij,ij->i", X, X)
        G = X @ L.T
        G *= -2.0
        G += sq_x[:, None]
        G += sq_l[None, :]
        np.maximum(G, 0.0, out=G)
        G *= -gamma
        if len(sq_x) and gamma * (float(sq_x.max()) + float(sq_l.max())) > EXACT_ABOVE:
            _exact_far_pairs(X, L, sq_x, sq_l, gamma, G)
        return np.exp(G, out=G)
    G = X @ L.T
    if spec["kernel"] == "poly":
        G *= spec["gamma"]
        G += spec["coef0"]
        return G ** spec["degree"]
    return G


#: The rbf exponent's cancellation error, ≈ γ·ε·‖l‖², stays below ~1e-12 up to here
#: (:func:`kernel_block` shifts the rows by the landmarks' mean above it).
SHIFT_ABOVE = 1024.0

#: Above this γ·(‖x‖² + ‖l‖²) (after the shift) a pair's distance is recomputed from its
#: differences (:func:`_exact_far_pairs`): the exponent's error is then above ~1e-9. Not
#: :data:`SHIFT_ABOVE`: ordinary data has such pairs (standardised page-blocks0's outlying
#: rows at 4 × gamma="scale"), and the recomputation would move their models by rounding.
EXACT_ABOVE = float(2**20)

#: Pairs per block of the exact recomputation in :func:`_exact_far_pairs`.
_PAIR_BLOCK = 1 << 15


def _exact_far_pairs(X, L, sq_x, sq_l, gamma: float, G) -> None:
    """Recompute, in place, the entries of ``G = −γ‖x − l‖²`` (formed by the expansion)
    whose expansion lost accuracy, from the differences themselves.

    After the shift of :func:`kernel_block` a row or landmark can still lie far from the
    centre (landmarks in clusters far apart, e.g. a column that is either 0 or ~1e6); the
    expansion's error in the exponent, ≈ γ·ε·(‖x‖² + ‖l‖²), is above ~1e-9 for the pairs
    beyond :data:`EXACT_ABOVE`. Those whose kernel value can be above 0 (exponent above
    −746 less that error) get
    :math:`-\\gamma\\sum_k (x_k - l_k)^2`, in blocks of :data:`_PAIR_BLOCK` pairs. Depends
    on the row and the landmarks only (every row of a model is computed the same way).
    """
    scale = gamma * (sq_x[:, None] + sq_l[None, :])
    far = scale > EXACT_ABOVE
    scale *= -8.0 * np.finfo(np.float64).eps  # minus a bound of the expansion's error
    scale -= 746.0
    far &= G > scale  # the kernel value can be above 0 (exp(-746) = 0)
    rows, cols = np.nonzero(far)
    for lo in range(0, len(rows), _PAIR_BLOCK):
        r, c = rows[lo : lo + _PAIR_BLOCK], cols[lo : lo + _PAIR_BLOCK]
        diff = X[r] - L[c]
        G[r, c] = -gamma * np.einsum("ij,ij->i", diff, diff)


#: Rows per chunk in :func:`map_features`.
CHUNK_ROWS = 4096


def score_chunks(n: int) -> list[tuple[int, int]]:
    """The ``(r0, r1)`` row ranges of ``CHUNK_ROWS`` rows that cover ``n`` rows, a one-row
    remainder joined to the chunk before it: numpy's product of a single row takes another
    path than a many-row one (an ulp apart), so the last of ``k * CHUNK_ROWS + 1`` rows
    scored alone would not keep the bits of the whole-matrix product (the MKL learners'
    ``decision_function``, session 25)."""
    bounds = [*range(0, n, CHUNK_ROWS), n]
    if len(bounds) > 2 and bounds[-1] - bounds[-2] == 1:
        del bounds[-2]
    return list(itertools.pairwise(bounds))


def map_features(
    X: Matrix,
    spec: dict,
    landmarks: np.ndarray,
    normalization: np.ndarray,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """:math:`\\Phi(X) = K(X, L)\\, U_k \\Lambda_k^{-1/2}`, a chunk of ``CHUNK_ROWS`` rows
    at a time: the n × m kernel block is never held whole (a chunk's stays in cache; at
    100,000 rows, first writes to fresh memory were a third of the maps' CPU time).
    Written into ``out`` (n × k, may be a column slice) if given."""
    n = X.shape[0]
    if out is None:
        out = np.empty((n, normalization.shape[1]))
    for r0 in range(0, n, CHUNK_ROWS):
        r1 = min(r0 + CHUNK_ROWS, n)
        np.matmul(kernel_block(X[r0:r1], landmarks, spec), normalization, out=out[r0:r1])
    return out


def _check_sampling_y(est, y, n_samples):
    if est.sampling == "stratified" and y is None:
        raise ValueError(
            f'{type(est).__name__}(sampling="stratified") draws landmarks per class, so it '
            "requires y to be passed, but the target y is None; pass y to fit(X, y), or use "
            'sampling="uniform".'
        )
    if y is not None:
        # a column vector is raveled with scikit-learn's DataConversionWarning; more
        # columns are refused with their shape (NumPy's "object too deep" came later)
        y = column_or_1d(y, warn=True)
        if y.shape[0] != n_samples:
            raise ValueError(f"y has {y.shape[0]} entries but X has {n_samples} rows.")
        if est.sampling == "stratified":
            _check_class_labels(est, y)
    return y


def _check_class_labels(est, y) -> None:
    """Refuse a ``y`` that is not class labels for ``sampling="stratified"``.

    A regression target would be one "class" per distinct value, and the water-filling of
    :func:`stratified_counts` would then take the rows of the ``n_landmarks`` smallest
    values whatever the seed; NaN would be a class of its own, and labels of mixed types
    cannot be sorted. Numbers must be integral (as scikit-learn's ``type_of_target`` takes
    classes), in a numeric or an object array.
    """
    values = y
    if y.dtype.kind == "O" and all(
        isinstance(v, numbers.Number) and not isinstance(v, bool) for v in y
    ):
        values = y.astype(np.float64)
    if values.dtype.kind in "fc":
        with np.errstate(invalid="ignore"):
            if np.isnan(values).any():
                raise ValueError(
                    f'{type(est).__name__}(sampling="stratified"): y contains NaN; class '
                    "labels must be given for every row (drop the unlabelled rows), or use "
                    'sampling="uniform", which ignores y.'
                )
            integral = bool(np.all(values == np.round(values)))
        if not integral:
            raise ValueError(
                f'{type(est).__name__}(sampling="stratified") draws landmarks per class, but '
                "y is continuous (non-integral numbers, e.g. a regression target), so every "
                "value would be a class of its own; pass class labels, or use "
                'sampling="uniform" (e.g. in a regression pipeline; it ignores y).'
            )
    try:
        np.unique(y)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in y})
        raise ValueError(
            f'{type(est).__name__}(sampling="stratified") draws landmarks per class, but y '
            f"mixes label types ({', '.join(kinds)}) that cannot be sorted; give every label "
            'the same type (e.g. all str), or use sampling="uniform".'
        ) from None


def _warn_empty_maps(est, sizes) -> None:
    """UserWarning for the maps that kept no eigenvalue of ``W`` (0 feature columns): the
    kernel vanishes on its landmarks (linear, or poly with ``coef0=0``, on zero rows) and
    ``jitter=0`` adds nothing, so the map is empty and a model on it sees no features."""
    empty = [m for m, k in enumerate(sizes) if k == 0]
    if empty:
        which = "the map" if len(sizes) == 1 else f"the map(s) of kernel(s) {empty}"
        warnings.warn(
            f"{type(est).__name__}: {which} kept no eigenvalue of W = K(L, L) (the kernel "
            "is 0 on every landmark, e.g. a linear or coef0=0 polynomial kernel on zero "
            "rows), so no feature columns. Use jitter > 0, another kernel, or more "
            "landmarks.",
            UserWarning,
            stacklevel=user_stacklevel(),
        )


def _capped_landmarks(est, n_samples: int) -> int:
    """``n_landmarks`` capped at ``n_samples``, with a UserWarning at the user's line."""
    if est.n_landmarks > n_samples:
        warnings.warn(
            f"n_landmarks={est.n_landmarks} > n_samples={n_samples}: using all "
            f"{n_samples} rows as landmarks.",
            UserWarning,
            stacklevel=user_stacklevel(),
        )
        return n_samples
    return int(est.n_landmarks)


def check_magnitude(est: object, X: Matrix) -> None:
    """skewlearn.base's magnitude guard for the transformers (which do not derive from it).

    Values whose squares overflow float64 (above :func:`skewlearn.base.max_abs_value`)
    would turn the default ``gamma`` (1/(d·Var X)) into 0 and every squared distance into
    inf, so they are refused with a message that asks for scaling, exactly as the
    classifiers of :mod:`skewlearn.base` do.
    """
    _check_magnitude(est, X, "squared distances would overflow float64 and the kernel "
                     "features would become 0/NaN")  # fmt: skip


def _validated_x(est, X, reset: bool) -> Matrix:
    """The transformers' ``X`` at ``fit`` (``reset``) and ``transform``: C-ordered float64
    or CSR, a text column or ``{feature: value}`` rows named with the fix as the learners
    name them, and the magnitude guard."""
    with _text_in_x_hint():
        X = validate_data(est, X, reset=reset, accept_sparse="csr", dtype=np.float64, order="C")
    check_magnitude(est, X)
    return X


_COMMON_CONSTRAINTS: dict = {
    "n_landmarks": [Interval(numbers.Integral, 1, None, closed="left")],
    "rank": [Interval(numbers.Integral, 1, None, closed="left"), None],
    "sampling": [StrOptions({"uniform", "stratified"})],
    "jitter": [Interval(numbers.Real, 0, None, closed="left")],
    "random_state": ["random_state"],
}


# --------------------------------------------------------------------------- one map
class StratifiedNystroem(
    VersionedPickleMixin, ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator
):
    """Nyström feature map with uniform or class-stratified (balanced) landmarks.

    .. math::  \\Phi(x) = K(x, L)\\, U_k \\Lambda_k^{-1/2},\\qquad
               \\Phi(X)\\Phi(X)^T = C\\, (W + \\varepsilon I)_k^{+} C^T \\approx K
               \\quad \\text{(Eq. 8 of [1]_)}

    with ``L`` the landmarks, :math:`C = K(X, L)`, and
    :math:`U_k \\Lambda_k U_k^T` the top-``rank`` eigendecomposition of
    :math:`W + \\varepsilon I`, :math:`W = K(L, L)` (see the module docstring for the
    eigenvalue cut-off).

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        Kernel conventions of :mod:`skewlearn.kernels`.
    gamma : float > 0 or None, default=None
        ``None`` means scikit-learn's ``"scale"``, ``1 / (n_features · X.var())``
        (not scikit-learn ``Nystroem``'s ``1 / n_features``).
    degree : int ≥ 1, default=3
        Poly only.
    coef0 : float, default=1.0
        Poly only.
    n_landmarks : int ≥ 1, default=100
        Number of landmarks ``m`` (capped at ``n_samples``, with a warning).
    rank : int ≥ 1 or None, default=None
        Rank ``k`` of the approximation of ``W``; ``None`` means ``m``.
    sampling : {"stratified", "uniform"}, default="stratified"
        ``"stratified"``: an equal share of landmarks per class (all of a class smaller than
        its share), needs class labels ``y`` in ``fit`` (a continuous target, NaN or labels
        of mixed types are refused); ``"uniform"``: the standard Nyström method (any or
        no ``y``).
    jitter : float ≥ 0, default=1e-10
        :math:`\\varepsilon` added to the diagonal of ``W``.
    random_state : int, RandomState or None, default=None
        Seeds the landmark draw.

    Attributes
    ----------
    landmark_indices_ : ndarray of shape (m,)
        Rows of the training ``X`` used as landmarks.
    landmarks_ : ndarray of shape (m, n_features)
    normalization_ : ndarray of shape (m, n_components_)
        :math:`U_k \\Lambda_k^{-1/2}`.
    eigenvalues_ : ndarray of shape (n_components_,)
        Kept eigenvalues of :math:`W + \\varepsilon I`, largest first.
    gamma_ : float
        The ``gamma`` used.
    n_components_ : int
        Output dimension (``rank`` minus dropped eigenvalues).

    References
    ----------
    .. [1] Multi-Nyström with MKL for imbalanced classification (seed 003), Section 2.3.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import StratifiedNystroem
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = (X[:, 0] > 1.5).astype(int)
    >>> ny = StratifiedNystroem(gamma=0.5, n_landmarks=20, random_state=0).fit(X, y)
    >>> int(y[ny.landmark_indices_].sum())  # half the landmarks are positives
    10
    >>> ny.transform(X).shape
    (200, 20)
    """

    _parameter_constraints: ClassVar[dict] = {
        "kernel": [StrOptions(set(KERNEL_CODES))],
        "gamma": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "degree": [Interval(numbers.Integral, 1, None, closed="left")],
        "coef0": [numbers.Real],
        **_COMMON_CONSTRAINTS,
    }
    _test_params: ClassVar[list[dict[str, Any]]] = [
        {"n_landmarks": 10},
        {"n_landmarks": 8, "rank": 5, "sampling": "uniform", "kernel": "poly"},
    ]

    def __init__(
        self,
        kernel: str = "rbf",
        gamma: float | None = None,
        degree: int = 3,
        coef0: float = 1.0,
        n_landmarks: int = 100,
        rank: int | None = None,
        sampling: str = "stratified",
        jitter: float = 1e-10,
        random_state: RandomStateLike = None,
    ):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.n_landmarks = n_landmarks
        self.rank = rank
        self.sampling = sampling
        self.jitter = jitter
        self.random_state = random_state

    def fit(self, X: MatrixLike, y: ArrayLike | None = None) -> Self:
        """Draw the landmarks and factor ``W``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training rows.
        y : array-like of shape (n_samples,), default=None
            Class labels; required when ``sampling="stratified"``.

        Returns
        -------
        self : object
        """
        self._validate_params()
        X = _validated_x(self, X, reset=True)
        y = _check_sampling_y(self, y, X.shape[0])
        spec = resolve_kernel(
            {
                "kernel": self.kernel,
                "gamma": self.gamma,
                "degree": self.degree,
                "coef0": self.coef0,
            },
            X,
        )
        fitted = fit_map(
            X,
            y,
            spec,
            _capped_landmarks(self, X.shape[0]),
            self.rank,
            self.sampling,
            float(self.jitter),
            check_random_state(self.random_state),
        )
        self.kernel_params_ = spec
        self.gamma_ = spec["gamma"]
        self.landmark_indices_ = fitted["indices"]
        self.landmarks_ = fitted["landmarks"]
        self.normalization_ = fitted["normalization"]
        self.eigenvalues_ = fitted["eigenvalues"]
        self.n_components_ = self._n_features_out = self.normalization_.shape[1]
        _warn_empty_maps(self, [self.n_components_])
        return self

    def transform(self, X: MatrixLike) -> np.ndarray:
        """Nyström features :math:`\\Phi(X)`, shape (n_samples, n_components_)."""
        check_is_fitted(self, "normalization_")
        X = _validated_x(self, X, reset=False)
        out = map_features(X, self.kernel_params_, self.landmarks_, self.normalization_)
        check_kernel_values(out, self.kernel_params_, "The Nyström features of X")
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = self.sampling == "stratified"
        return tags


# --------------------------------------------------------------------------- mixture
#: Default kernels of the mixture: Gaussian, ``gamma`` = these multiples of ``"scale"``.
DEFAULT_GAMMA_MULTIPLIERS = (0.25, 1.0, 4.0)


def resolve_kernels(kernels: Sequence[dict] | None, X: Matrix) -> list[dict]:
    """Validate a kernel list and resolve its gammas.

    ``None`` means Gaussian kernels at :data:`DEFAULT_GAMMA_MULTIPLIERS` × ``"scale"``.
    """
    if kernels is None:
        scale = scale_gamma(X)
        top = max(DEFAULT_GAMMA_MULTIPLIERS)
        if not np.isfinite(top * scale):  # "scale" is a float; its multiple is not
            raise ValueError(
                f'the default kernels use up to {top:g} × gamma="scale" = {top:g}/(d·Var X), '
                f'which overflows float64 (gamma="scale" is {scale:.3g}). Scale the features '
                "(e.g. sklearn.preprocessing.StandardScaler) or give kernels."
            )
        return [
            resolve_kernel({"kernel": "rbf", "gamma": s * scale}, X)
            for s in DEFAULT_GAMMA_MULTIPLIERS
        ]
    if isinstance(kernels, dict) or not hasattr(kernels, "__len__") or len(kernels) == 0:
        raise ValueError(
            "kernels must be a non-empty list of dicts such as "
            f"[{{'kernel': 'rbf', 'gamma': 0.1}}, {{'kernel': 'rbf', 'gamma': 1.0}}]; "
            f"got {kernels!r}."
        )
    return [resolve_kernel(spec, X) for spec in kernels]


def check_mu(mu: ArrayLike | None, n_kernels: int) -> np.ndarray:
    """``mu`` as a float array on the simplex (``None`` = uniform ``1/M``)."""
    if mu is None:
        return np.full(n_kernels, 1.0 / n_kernels)
    mu = np.asarray(mu, dtype=np.float64).ravel()
    if mu.shape[0] != n_kernels or (mu < 0).any() or not np.isfinite(mu).all() or mu.sum() <= 0:
        raise ValueError(
            f"mu must hold {n_kernels} non-negative finite weights (one per kernel) with a "
            f"positive sum; got {mu!r}."
        )
    return mu / mu.sum()


class MultiNystroem(
    VersionedPickleMixin, ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator
):
    """Multi-Nyström features: ``M`` landmark subsets, one kernel each, weighted by ``mu``.

    .. math::  \\Phi_\\mu(x) = [\\sqrt{\\mu_1}\\,\\Phi_1(x), \\dots,
               \\sqrt{\\mu_M}\\,\\Phi_M(x)],\\qquad
               \\Phi_\\mu(X)\\Phi_\\mu(X)^T = \\sum_m \\mu_m \\tilde K_m
               \\quad \\text{(Eqs. 11–13 of [1]_)}

    Each :math:`\\Phi_m` is a :class:`StratifiedNystroem` map on its own landmark subset
    :math:`L_m` (drawn independently, one after the other from the same seeded generator,
    so subset 0 equals the landmarks of ``StratifiedNystroem`` with the same
    ``random_state``) with kernel ``kernels[m]``. Maps are computed in parallel through joblib
    (threads by default, the kernel helpers release the GIL; Dask with joblib's dask
    backend). To learn ``mu`` with an SVM use
    :class:`~skewlearn.MultiNystroemMKL`.

    Parameters
    ----------
    kernels : list or tuple of dict, or None, default=None
        One dict per subset with keys ``kernel`` ("rbf", "poly", "linear"), ``gamma``
        (float > 0, or None for ``"scale"``), ``degree``, ``coef0``; missing keys take the
        defaults of :class:`StratifiedNystroem`. ``None``: three Gaussian kernels with
        ``gamma`` = ``scale`` × (1/4, 1, 4).
    n_landmarks : int ≥ 1, default=100
        Landmarks per subset.
    rank : int ≥ 1 or None, default=None
        Rank per subset (``None`` = ``n_landmarks``).
    sampling : {"stratified", "uniform"}, default="stratified"
        As in :class:`StratifiedNystroem`, for every subset.
    jitter : float ≥ 0, default=1e-10
        :math:`\\varepsilon` added to the diagonal of each subset's ``W``.
    mu : array-like of shape (M,) or None, default=None
        Mixture weights (normalised to sum 1); ``None`` = ``1/M`` each.
    n_jobs : int or None, default=None
        joblib workers for fitting and transforming the subsets: threads by default; on a
        Dask cluster inside ``joblib.parallel_config(backend="dask")`` (which the experiment
        runner sets with ``--scheduler``), one task per subset.
    random_state : int, RandomState or None, default=None
        Seeds the landmark draws.

    Attributes
    ----------
    kernel_params_ : list of dict
        Resolved kernels (numeric ``gamma``).
    landmark_indices_, landmarks_, normalization_, eigenvalues_ : list
        Per subset, as in :class:`StratifiedNystroem`.
    mu_ : ndarray of shape (M,)
    block_sizes_ : ndarray of shape (M,)
        Columns of each :math:`\\Phi_m`.
    n_components_ : int
        Total output dimension.

    References
    ----------
    .. [1] Multi-Nyström with MKL for imbalanced classification (seed 003), Section 3.1.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import MultiNystroem
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = (X[:, 0] > 1.5).astype(int)
    >>> mn = MultiNystroem(kernels=[{"gamma": 0.1}, {"gamma": 1.0}], n_landmarks=20,
    ...                    rank=10, random_state=0).fit(X, y)
    >>> mn.transform(X).shape
    (200, 20)
    """

    _parameter_constraints: ClassVar[dict] = {
        "kernels": [list, tuple, None],
        **_COMMON_CONSTRAINTS,
        "mu": ["array-like", None],
        "n_jobs": [numbers.Integral, None],
    }
    _test_params: ClassVar[list[dict[str, Any]]] = [
        {"n_landmarks": 8, "rank": 6},
        {
            "kernels": [{"gamma": 0.5}, {"kernel": "poly", "degree": 2}],
            "n_landmarks": 6,
            "sampling": "uniform",
            "mu": [0.3, 0.7],
        },
    ]

    def __init__(
        self,
        kernels: list[dict] | tuple[dict, ...] | None = None,
        n_landmarks: int = 100,
        rank: int | None = None,
        sampling: str = "stratified",
        jitter: float = 1e-10,
        mu: ArrayLike | None = None,
        n_jobs: int | None = None,
        random_state: RandomStateLike = None,
    ):
        self.kernels = kernels
        self.n_landmarks = n_landmarks
        self.rank = rank
        self.sampling = sampling
        self.jitter = jitter
        self.mu = mu
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X: MatrixLike, y: ArrayLike | None = None) -> Self:
        """Draw ``M`` landmark subsets and factor each ``W_m``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training rows.
        y : array-like of shape (n_samples,), default=None
            Required when ``sampling="stratified"``.

        Returns
        -------
        self : object
        """
        self._validate_params()
        X = _validated_x(self, X, reset=True)
        y = _check_sampling_y(self, y, X.shape[0])
        self._fit_maps(X, y)
        self.mu_ = check_mu(self.mu, len(self.kernel_params_))
        return self

    def _fit_maps(self, X, y, owner=None) -> None:
        """Resolve the kernels, draw the subsets and factor them; ``owner`` (default
        ``self``) is the estimator the warnings name."""
        specs = resolve_kernels(self.kernels, X)
        m = _capped_landmarks(self, X.shape[0])
        rng = check_random_state(self.random_state)
        # draws stay sequential (reproducible); the factorisations run in parallel
        draws = [draw_landmarks(X.shape[0], m, self.sampling, y, rng) for _ in specs]
        fitted = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(factor_subset)(X, idx, spec, self.rank, float(self.jitter))
            for idx, spec in zip(draws, specs)
        )
        self.kernel_params_ = specs
        self.landmark_indices_ = [f["indices"] for f in fitted]
        self.landmarks_ = [f["landmarks"] for f in fitted]
        self.normalization_ = [f["normalization"] for f in fitted]
        self.eigenvalues_ = [f["eigenvalues"] for f in fitted]
        self.block_sizes_ = np.array([f["normalization"].shape[1] for f in fitted])
        self.n_components_ = self._n_features_out = int(self.block_sizes_.sum())
        _warn_empty_maps(owner or self, self.block_sizes_)

    def _blocks(self, X, which=None) -> list[np.ndarray]:
        """Unscaled per-subset maps :math:`[\\Phi_1(X), \\dots, \\Phi_M(X)]` (validated X),
        or only the subsets listed in ``which``."""
        which = range(len(self.kernel_params_)) if which is None else which
        return Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(map_features)(
                X, self.kernel_params_[m], self.landmarks_[m], self.normalization_[m]
            )
            for m in which
        )

    def _features(self, X) -> np.ndarray:
        """Unscaled concatenation :math:`[\\Phi_1(X), \\dots, \\Phi_M(X)]`.

        With one joblib worker the maps are written straight into the concatenation
        (at 100,000 rows × 450 columns the copy of :func:`numpy.hstack` into fresh memory
        cost 0.8 CPU s); with more workers (threads, Dask) each map is computed apart and
        then stacked. The values are the same either way (tested)."""
        if effective_n_jobs(self.n_jobs) == 1:
            starts = np.concatenate([[0], np.cumsum(self.block_sizes_)])
            out = np.empty((X.shape[0], int(starts[-1])))
            for m, spec in enumerate(self.kernel_params_):
                map_features(
                    X, spec, self.landmarks_[m], self.normalization_[m],
                    out=out[:, starts[m] : starts[m + 1]],
                )  # fmt: skip
            return out
        return np.hstack(self._blocks(X))

    def transform(self, X: MatrixLike) -> np.ndarray:
        """:math:`\\Phi_\\mu(X)`, shape (n_samples, n_components_)."""
        check_is_fitted(self, "normalization_")
        X = _validated_x(self, X, reset=False)
        scale = np.repeat(np.sqrt(self.mu_), self.block_sizes_)
        out = self._features(X)
        out *= scale  # in place: a second n × R array would double the peak
        if not _scan_values(out.ravel())[1]:  # name the first kernel that overflowed
            starts = np.concatenate([[0], np.cumsum(self.block_sizes_)])
            for m, spec in enumerate(self.kernel_params_):
                block = out[:, starts[m] : starts[m + 1]]
                check_kernel_values(block, spec, f"The Nyström features of X (kernel {m})")
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = self.sampling == "stratified"
        return tags


# --------------------------------------------------------------------------- baselines
def nystroem_linear_svm(
    n_landmarks: int = 100,
    rank: int | None = None,
    gamma: float | None = None,
    C: float = 1.0,
    class_weight: str | dict[Any, float] | None = "balanced",
    sampling: str = "uniform",
    random_state: RandomStateLike = None,
) -> Pipeline:
    """The "Nyström + linear SVM" baseline of [1]_: uniform landmarks, hinge-loss linear SVM.

    A recipe: ``make_pipeline(StratifiedNystroem(...), LinearSVC(loss="hinge", dual=True))``
    (liblinear; its intercept is a regularised weight of a constant feature 1). The
    full-kernel SVM baseline is simply ``sklearn.svm.SVC(kernel="rbf", gamma="scale",
    C=..., class_weight="balanced")``.

    Parameters
    ----------
    n_landmarks : int, default=100
        Landmarks of the :class:`StratifiedNystroem` map.
    rank : int or None, default=None
        Rank of the approximation; ``None`` means ``n_landmarks``.
    gamma : float or None, default=None
        rbf width; ``None`` means scikit-learn's ``"scale"``.
    C : float, default=1.0
        ``LinearSVC``'s C.
    class_weight : dict, "balanced" or None, default="balanced"
        ``LinearSVC``'s class weights.
    sampling : {"uniform", "stratified"}, default="uniform"
        Landmark sampling (``"uniform"`` is the paper's baseline).
    random_state : int, RandomState or None, default=None
        Seeds the landmark draw and the order in which liblinear's dual coordinate
        descent visits the rows (``LinearSVC``'s ``random_state``): an int gives the same
        model at every fit.

    Returns
    -------
    sklearn.pipeline.Pipeline

    References
    ----------
    .. [1] Multi-Nyström with MKL for imbalanced classification (seed 003), Section 4.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.6).astype(int)
    >>> clf = nystroem_linear_svm(n_landmarks=50, gamma=1.0, random_state=0).fit(X, y)
    >>> float(clf.score(X, y)) > 0.85
    True
    """
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC

    return make_pipeline(
        StratifiedNystroem(
            gamma=gamma,
            n_landmarks=n_landmarks,
            rank=rank,
            sampling=sampling,
            random_state=random_state,
        ),
        # liblinear's row order too: unseeded it came from NumPy's global generator
        LinearSVC(
            loss="hinge",
            dual=True,
            C=C,
            class_weight=class_weight,
            max_iter=10_000,
            random_state=random_state,
        ),
    )
