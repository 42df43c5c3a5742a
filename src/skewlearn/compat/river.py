"""River interoperability: skewlearn learners as River classifiers, metrics as River metrics.

:class:`RiverClassifier` wraps any skewlearn online learner (``partial_fit`` +
``decision_function``: the linear learners, KOIL, OAM, OMCSL, ...) as a River
``MiniBatchClassifier``, so ``learn_one``/``predict_one``/``predict_proba_one`` and
``learn_many``/``predict_many``/``predict_proba_many`` work in River pipelines and
``river.evaluate.progressive_val_score``. :class:`RiverMetric` makes a skewlearn streaming
metric (exact ROC AUC, F1, G-mean, histogram AUROC/AUPRC, ...) a River ``BinaryMetric``.

Feature dicts become vectors in a fixed feature order learnt at the first ``learn_one`` /
``learn_many`` call (or given as ``features``): a skewlearn model has a fixed number of
weights. Keys that were not in that order are **ignored** (River's convention that models
"work fine when new features appear"; River's own estimator checks require it; a learnt
order names the first such key in a ``UserWarning``, once), and missing keys count as 0,
as in River's linear models. In the frames of ``learn_many`` /
``predict_many`` a NaN cell is a missing key (a frame built from dicts of different keys
holds NaN there), so it counts as 0 too and both paths learn the same model. Pass
``features`` to fix the order up front. Frames of another backend River takes (polars,
pyarrow, ... through narwhals) are read as pandas frames; the ``*_many`` results are
pandas.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Hashable, Sequence
from typing import Any, Self

import numpy as np
from sklearn.base import clone

try:
    import pandas as pd
    from river import base as river_base
    from river.metrics.base import BinaryMetric
except ImportError as exc:  # River (and the pandas it uses) are optional
    raise ImportError(
        f"skewlearn.compat.river needs River and pandas ({exc}); install them with "
        "`pip install river pandas`."
    ) from exc

from .._values import plain, same_value
from ..base import (
    BinaryClassifier,
    OnlineClassifier,
    VersionedPickleMixin,
    decision_cut,
    max_abs_value,
    user_stacklevel,
)
from ..linear.first_order import _logistic_columns, _logistic_pair
from ..metrics.batch import _is_missing
from ..metrics.streaming import Confusion, MistakeRate, StreamingMetric, _label_type

__all__ = ["RiverClassifier", "RiverMetric"]


def _pandas_frame(X, method: str) -> pd.DataFrame:
    """``X`` as a pandas frame: River (0.26) takes any eager frame narwhals reads (pyarrow,
    polars, ...), and the adapter reads them through narwhals too. A repeated column
    name is refused: it would be one feature key with two values."""
    if not isinstance(X, pd.DataFrame):
        X = _other_frame(X, method)
    if X.columns.has_duplicates:
        repeated = X.columns[X.columns.duplicated()][0]
        raise ValueError(
            f"{method} got a frame with the column {repeated!r} twice; a feature has one "
            "value per row (and one weight in the model). Drop or rename the repeated "
            "column."
        )
    return X


def _other_frame(X, method: str) -> pd.DataFrame:
    """A frame of another backend as a pandas frame (through narwhals)."""
    try:
        import narwhals as nw

        return nw.from_native(X, eager_only=True).to_pandas()
    except (ImportError, TypeError):
        raise TypeError(
            f"{method} takes a data frame (pandas, or another backend River reads through "
            f"narwhals, such as polars or pyarrow); got {type(X).__name__}. Build one with "
            "pandas.DataFrame(rows), or call learn_one / predict_one per dict."
        ) from None


def _labels(y):
    """``y`` as values that compare with Python labels (a pyarrow array's elements are
    pyarrow scalars, equal to no label)."""
    if isinstance(y, pd.Series | np.ndarray | list | tuple):
        return y
    try:
        import narwhals as nw

        return nw.from_native(y, series_only=True).to_pandas()
    except (ImportError, TypeError):
        return y


def _gap_fix(key, value) -> str:
    """River's fix for a feature dict whose ``key`` holds ``value``, None, pandas' NA, NaN
    or ±inf. ``river.preprocessing.StatImputer`` fills None only (``x[i] is None``), and
    only for the features it is given: NaN and pandas' NA/NaT pass through it (NaN into
    its running mean too)."""
    impute = f"river.preprocessing.StatImputer(({key!r}, river.stats.Mean()))"
    leave = "leave the key out of the dict (a missing key counts as 0)"
    if isinstance(value, float) and math.isinf(value):
        return f"replace it with a finite value or {leave}"
    if value is not None:  # NaN, pandas' NA or NaT
        name = "NaN" if isinstance(value, float) else repr(value)
        return f"{leave}, or put None in its place and impute it ({impute} fills None, not {name})"
    return f"impute it ({impute} fills None) or {leave}"


#: Label types that are never missing (:func:`~skewlearn.metrics.batch._is_missing` is
#: called for the others).
_PLAIN_LABELS = frozenset({bool, int, str})


def _plain_scores(cls) -> bool:
    """Whether ``cls.decision_function`` is validation, then ``_scores_of``, then the sign of
    the positive class (:class:`skewlearn.base.BinaryClassifier`'s, which every online
    learner inherits), with :class:`skewlearn.base.OnlineClassifier`'s ``_scores_of`` (the
    kernel pass ``_scores`` over the packed rows, which ``_raw_score_row`` calls for one)."""
    return (
        cls.decision_function is BinaryClassifier.decision_function
        and cls._raw_scores is BinaryClassifier._raw_scores
        and cls._scores_of is OnlineClassifier._scores_of
    )


def _not_online(estimator, classes) -> str:
    """The error for an ``estimator`` RiverClassifier cannot wrap, with what to wrap instead:
    a skewlearn batch learner or transformer has no ``partial_fit``; a Pipeline's steps
    belong in River's own pipeline; another library's online classifier (scikit-learn's
    SGDClassifier has ``partial_fit`` and ``decision_function`` too) is River's
    ``convert_sklearn_to_river``'s to wrap (with ``classes``, this adapter's labels); a
    River model needs no adapter. A class (not an instance) is judged as its instances."""
    cls = estimator if isinstance(estimator, type) else type(estimator)
    name = cls.__name__
    online = "an online one, e.g. RiverClassifier(PassiveAggressive()) (also OGD, KOIL, OMCSL, ...)"
    if issubclass(cls, VersionedPickleMixin):
        return (
            f"{name} is a batch learner or transformer of skewlearn (it has no partial_fit), "
            f"so it cannot learn one row at a time; wrap {online}."
        )
    if hasattr(estimator, "learn_one"):  # before "steps": a River pipeline has them too
        return f"{name} is a River model already; use it directly, without RiverClassifier."
    if hasattr(estimator, "steps"):
        return (
            f"estimator is a {name}, which cannot learn one row at a time; build the "
            "pipeline in River around the learner, e.g. preprocessing.StandardScaler() | "
            "RiverClassifier(PassiveAggressive()) (with from river import preprocessing)."
        )
    if hasattr(estimator, "partial_fit"):
        two = isinstance(classes, Sequence) and not isinstance(classes, str | bytes)
        labels = list(classes) if two and len(classes) == 2 else [False, True]
        return (
            f"{name} is not a skewlearn learner; River wraps other scikit-learn online "
            f"classifiers itself: river.compat.convert_sklearn_to_river({name}(...), "
            f"classes={labels!r})."
        )
    return (
        "estimator must be a skewlearn online classifier (with partial_fit and "
        f"decision_function); got {name}."
    )


class RiverClassifier(river_base.MiniBatchClassifier):
    """A skewlearn online learner as a River binary classifier.

    ``learn_one(x, y)`` is ``partial_fit`` on one row; ``learn_many(X, y)`` one
    ``partial_fit`` on the whole frame, which gives the same model (skewlearn's
    partial_fit-in-pieces contract). ``predict_proba_one`` returns
    :math:`\\{c_0: \\sigma(-s), c_1: \\sigma(s)\\}` with :math:`s = f - t`, :math:`f` the
    ``decision_function`` and :math:`t` the learner's ``threshold`` (KOIL, OAM, OPAUC; 0 for
    the others): for ``OGD(loss="logistic")`` its own ``predict_proba``, bit for bit (each
    column the logistic function of its own signed score, so a confident row's
    :math:`c_0` is not rounded to 0 as :math:`1 - \\sigma(s)` would be; the two sum to 1
    within 2 ulp); for the other learners a monotone squashing of the score (not a
    calibrated probability; :math:`\\sigma(s) > \\tfrac12` exactly when the learner's
    ``predict`` gives :math:`c_1`). ``predict_proba_many`` gives the same values. Score
    the ranking with ``RiverMetric(ROCAUC())`` (exact, see :class:`RiverMetric`): River's
    own ``ROCAUC`` counts the probabilities at ``n_thresholds`` (10) grid points, and
    learners whose scores stay small, such as the kernel learners (KOIL, NORMA) on
    standardised features, keep their probabilities near ½, between two grid points: on
    River's Phishing stream behind a ``StandardScaler``, KOIL scores an exact AUC of about
    0.9 and River's ``ROCAUC`` about 0.55.
    Before the first ``learn_one`` the probabilities are ½ each and ``predict_one`` returns
    :math:`c_0`.

    Parameters
    ----------
    estimator : skewlearn online classifier
        Cloned at the first learning call; the given object is never modified. Its
        ``pos_label``, when set, must be ``classes[1]`` (the positive class here; a
        cost-sensitive learner's ``c_pos`` goes to it), else ValueError.
    classes : tuple or list of two labels, default=(False, True)
        :math:`(c_0, c_1)`: the negative and the positive label (River's binary
        classifiers use ``False``/``True``; ``0``/``1`` compare equal to them). Other labels
        raise.
    features : tuple or list, or None, default=None
        The feature order: distinct keys, in a tuple or list. ``None`` learns it from the
        first learning call; keys outside it are ignored (a ``UserWarning`` names the
        first, once: pass every feature here when an encoder such as River's
        ``OneHotEncoder`` emits a key only for the category at hand) and missing ones
        count as 0 (see the module docstring).
    seed : int or None, default=None
        When not None, the clone's ``random_state`` (River's seeding convention).

    Examples
    --------
    >>> from river import datasets, evaluate, metrics
    >>> from skewlearn import OMCSL
    >>> from skewlearn.compat.river import RiverClassifier
    >>> model = RiverClassifier(OMCSL(measure="auroc"), seed=0)
    >>> m = evaluate.progressive_val_score(datasets.Phishing(), model, metrics.ROCAUC())
    >>> bool(m.get() > 0.85)
    True
    """

    def __init__(
        self,
        estimator: OnlineClassifier,
        classes: tuple | list = (False, True),
        features: Sequence[Hashable] | None = None,
        seed: int | None = None,
    ):
        self.estimator = estimator
        self.classes = classes
        self.features = features
        self.seed = seed
        self._model = None
        self._order: tuple | None = None
        if isinstance(estimator, type):
            if not issubclass(estimator, OnlineClassifier):  # no instance of it would do
                raise TypeError(
                    f"estimator is the class {estimator.__name__}, not an instance of it; "
                    + _not_online(estimator, classes)
                )
            raise TypeError(
                f"estimator is the class {estimator.__name__}, not an instance of it; pass an "
                f"instance, e.g. RiverClassifier({estimator.__name__}())."
            )
        if not isinstance(estimator, OnlineClassifier):
            raise TypeError(_not_online(estimator, classes))
        if isinstance(classes, str | bytes):
            raise ValueError(
                f"classes={classes!r} is one string, which would be read as the labels "
                f"{tuple(classes)!r}; pass a tuple (negative label, positive label)."
            )
        if not isinstance(classes, Sequence) or len(classes) != 2 or classes[0] == classes[1]:
            raise ValueError(
                f"classes must be two distinct labels (negative, positive); got {classes!r}."
            )
        self._check_pos_label(estimator.get_params(deep=False).get("pos_label"), classes)
        if features is not None:
            self._check_features(features)

    @staticmethod
    def _check_features(features) -> None:
        """``features`` must be an ordered sequence of distinct hashable keys: a string
        was split into its characters, a repeated key counted twice, a set gave an order
        that depends on the process's string hash seed, and ``()`` failed at the first row."""
        if isinstance(features, str | bytes):
            raise ValueError(
                f"features={features!r} is one string, which would be read as the keys "
                f"{tuple(features)!r}; pass a tuple of feature names, e.g. "
                f"features=({features!r},)."
            )
        if not isinstance(features, Sequence):
            raise TypeError(
                "features must be an ordered sequence (a tuple or list) of feature names; "
                f"got {type(features).__name__}. A set has no fixed order: pass "
                "tuple(sorted(names))."
            )
        if len(features) == 0:
            raise ValueError(
                "features=() names no feature; pass the feature names, or features=None to "
                "take them from the first learning call."
            )
        seen = set()
        for key in features:
            try:
                repeated = key in seen
            except TypeError:
                raise TypeError(
                    f"feature names must be hashable (dict keys); got {key!r} in features."
                ) from None
            if repeated:
                raise ValueError(
                    f"features names {key!r} twice; each feature can have one weight only."
                )
            seen.add(key)

    @staticmethod
    def _check_pos_label(pos, classes) -> None:
        """The estimator's ``pos_label`` must be ``classes[1]`` (or None): the clone learns
        the codes 0/1 with ``classes[1]`` as 1 and its own ``pos_label`` unset, so any other
        value would be replaced silently (a cost-sensitive learner's ``c_pos`` would go to
        the other class)."""
        if pos is None or same_value(pos, classes[1]):
            return
        if same_value(pos, classes[0]):
            raise ValueError(
                f"The estimator's pos_label={pos!r} is classes[0], which RiverClassifier "
                f"treats as the negative class (classes={classes!r}: negative, positive). "
                f"Pass classes={(classes[1], classes[0])!r} to make {pos!r} the positive "
                "class; the estimator's pos_label may then stay or be dropped."
            )
        raise ValueError(
            f"The estimator's pos_label={pos!r} is not one of classes={classes!r}. "
            "RiverClassifier's positive class is classes[1]: pass "
            f"classes=(<negative label>, {pos!r}), or drop the estimator's pos_label."
        )

    @property
    def _multiclass(self) -> bool:
        return False

    @classmethod
    def _unit_test_params(cls):
        from ..linear.first_order import OGD

        yield {"estimator": OGD(loss="logistic")}

    # ------------------------------------------------------------------ helpers
    #: The learner's ``classes_`` array as the adapter's last learning call left it (None
    #: before one). The one-row paths skip the learner's validation only while the model
    #: holds that very array: one refit by hand (``.model.fit`` with another width or
    #: other classes) was read and written past the end of its weights, or learnt every
    #: label as negative; it is validated by the learner until the adapter teaches it.
    _taught = None

    #: Half of :func:`~skewlearn.base.max_abs_value` for the feature order's width, set
    #: with the order: a row whose norm is at most this passes the magnitude check (the
    #: half leaves room for ``math.hypot``'s rounding). 0 (every row is checked in full)
    #: on an adapter pickled before it existed.
    _quick_bound: float = 0.0

    def _fix_order(self, keys) -> None:
        if self._order is None:
            order = tuple(self.features if self.features is not None else keys)
            if not order:
                raise ValueError(
                    "The first learning call had no features; pass features=(...) or learn "
                    "from a non-empty feature dict first."
                )
            self._order = order
            self._quick_bound = 0.5 * max_abs_value(len(order))

    #: Whether a key outside a learnt feature order has been named (:meth:`_new_keys`),
    #: and the order's keys as a set (made at the first look).
    _new_keys_named = False
    _known_keys: frozenset | None = None

    def _new_keys(self, keys) -> None:
        """Warn, once per adapter, when a learning call holds keys outside the feature
        order learnt from the first one (not one given as ``features``): they are ignored,
        and River's ``OneHotEncoder`` (the advice for text) emits a key only for the
        category of the row at hand, so every category after the first row's was lost
        without a word."""
        if self._new_keys_named or self.features is not None:
            return
        known = self._known_keys
        if known is None:
            known = self._known_keys = frozenset(self._order)
        if known.issuperset(keys):
            return
        new = [k for k in keys if k not in known]
        self._new_keys_named = True
        shown = ", ".join(repr(k) for k in new[:3]) + (", ..." if len(new) > 3 else "")
        warnings.warn(
            f"RiverClassifier learnt its feature order from the first learning call "
            f"({len(known)} keys); key {shown} first appeared later and is ignored, as every "
            "key outside the order will be (a skewlearn model has a fixed number of "
            "weights). An encoder that emits a key only when its value occurs (River's "
            "OneHotEncoder) loses its other categories this way: pass features=(...) naming "
            "every feature up front. Said once per model.",
            UserWarning,
            stacklevel=user_stacklevel(),
        )

    @staticmethod
    def _not_a_number(err: Exception) -> ValueError:
        return ValueError(
            f"Every feature value must be a number; {err}. Encode categorical features "
            "first (e.g. river.preprocessing.OneHotEncoder)."
        )

    @staticmethod
    def _too_large(key) -> ValueError:
        """The error for an integer beyond float64's range (Python's OverflowError, "int too
        large to convert to float", named neither the feature nor a fix)."""
        return ValueError(
            f"Feature {key!r} holds an integer too large for float64 (beyond 1.8e308); "
            "every feature value must be a float64 number, and a learner needs far smaller "
            "ones. Rescale the feature first, e.g. divide it by a constant or take its "
            "logarithm (math.log accepts such integers)."
        )

    def _values(self, x: dict) -> list[float]:
        try:
            return [float(x.get(f, 0.0)) for f in self._order]
        except (TypeError, ValueError, OverflowError):
            pass
        for f in self._order:  # the first value that failed, named
            try:
                float(x.get(f, 0.0))
            except (TypeError, ValueError) as err:
                if _is_missing(x[f]):  # None (River's missing value, JSON's null), pd.NA
                    raise ValueError(
                        f"Feature {f!r} holds {x[f]!r}, a missing value: every feature value "
                        f"must be a number. In a River pipeline, {_gap_fix(f, x[f])}."
                    ) from None
                raise ValueError(
                    f"Feature {f!r} holds {x[f]!r}, which is no number: every feature value "
                    f"must be a number ({err}). Encode categorical features first (e.g. "
                    "river.preprocessing.OneHotEncoder)."
                ) from None
            except OverflowError:
                raise self._too_large(f) from None
        raise AssertionError("unreachable: a value failed float() once only")  # pragma: no cover

    def _check_row(self, row: np.ndarray, values: list[float]) -> None:
        """The learner's NaN/inf and magnitude check of a row built from a dict, its error
        naming the feature at fault and River's own preprocessing (the learner's message
        names neither, and advises scikit-learn's, which a River pipeline cannot hold)."""
        try:
            self._model._check_magnitude(row, values)
        except ValueError as err:
            limit = max_abs_value(len(values))
            pairs = list(zip(self._order, values))
            bad = [p for p in pairs if not math.isfinite(p[1])]
            key, value = (bad or [p for p in pairs if abs(p[1]) > limit] or [(None, None)])[0]
            if key is None:  # pragma: no cover - the check refuses only what is found above
                raise
            fix = (
                _gap_fix(key, value)
                if bad
                else "scale it (river.preprocessing.StandardScaler or MaxAbsScaler)"
            )
            raise ValueError(
                f"Feature {key!r} holds {value!r}: {err} In a River pipeline, {fix}."
            ) from None

    def _ready_row(self, x: dict) -> np.ndarray:
        """``x`` as the 1-row matrix ``partial_fit``/``decision_function`` would accept,
        with their NaN/inf and magnitude checks made on the Python floats it is built from
        (for a fitted model: its width is the feature order's, and it has no feature
        names). A row whose norm is within half the magnitude limit passes them without
        being scanned (``math.hypot`` of the floats, ~0.2 us: NaN, inf and any value
        beyond the limit give a larger norm or NaN); any other row gets the learner's
        check and its messages."""
        return np.array((self._checked_values(x),), dtype=np.float64)

    def _checked_values(self, x: dict) -> list[float]:
        """The values of :meth:`_ready_row` (as Python floats), checked."""
        values = self._values(x)
        if not math.hypot(*values) <= self._quick_bound:
            self._check_row(np.array((values,), dtype=np.float64), values)
        return values

    def _matrix(self, X: pd.DataFrame) -> np.ndarray:
        # a NaN cell is a key missing from that row's dict: 0, as in learn_one
        X = X.reindex(columns=list(self._order), fill_value=0.0)
        try:
            return X.fillna(0.0).to_numpy(dtype=np.float64)
        except (TypeError, ValueError, OverflowError) as err:
            first = err
        for f in X.columns:  # the column that failed, named
            try:
                X[f].fillna(0.0).to_numpy(dtype=np.float64)
            except OverflowError:
                raise self._too_large(f) from None
            except (TypeError, ValueError) as err:
                raise ValueError(
                    f"Feature {f!r} (a column) holds a value that is no number: every feature "
                    f"value must be a number ({err}). Encode categorical features first (e.g. "
                    "river.preprocessing.OneHotEncoder)."
                ) from None
        if isinstance(first, OverflowError):  # (no single column fails alone)
            raise first
        raise self._not_a_number(first) from None

    def _checked_matrix(self, X: pd.DataFrame) -> np.ndarray:
        """:meth:`_matrix` of a frame, with the learner's NaN/inf and magnitude check made
        here, so that its error names the column and the row's index label at fault and
        River's preprocessing (the learner's message names neither, and advises
        scikit-learn's, which a River pipeline cannot hold), as :meth:`_check_row` does
        for a dict."""
        M = self._matrix(X)
        try:
            self._learner()._check_magnitude(M)
        except ValueError as err:
            bad = ~np.isfinite(M)
            if not bad.any():
                bad = np.abs(M) > max_abs_value(M.shape[1])
            if not bad.any():  # pragma: no cover - the check refuses only what is found here
                raise
            i, j = np.argwhere(bad)[0]
            value = float(M[i, j])
            fix = (
                "scale it (river.preprocessing.StandardScaler or MaxAbsScaler)"
                if math.isfinite(value)
                else "replace it with a finite value (a NaN cell counts as 0, as a key "
                "missing from learn_one's dict)"
            )
            raise ValueError(
                f"Feature {self._order[j]!r} holds {value!r} at index {plain(X.index[i])!r}: {err} "
                f"In a River pipeline, {fix}."
            ) from None
        return M

    @staticmethod
    def _missing_label(v, where: str = "") -> ValueError:
        """The error for an unlabelled row: it is no class, and ``classes`` cannot help."""
        return ValueError(
            f"y holds a missing label ({v!r}{where}); a learner needs the class of every row "
            "it learns from. Skip the unlabelled rows (River's progressive_val_score never "
            "passes them to learn_one), or fill their labels in."
        )

    def _code(self, v) -> int:
        """1 or 0 for a label of ``classes`` (the caller has refused a missing one)."""
        if v == self.classes[1]:
            return 1
        if v == self.classes[0]:
            return 0
        raise ValueError(
            f"label {v!r} is neither of classes={self.classes!r}; pass "
            "classes=(negative, positive) with the stream's two labels."
        )

    def _codes(self, y) -> np.ndarray:
        index = y.index if isinstance(y, pd.Series) else range(len(y))
        for i, v in zip(index, y, strict=False):
            if _is_missing(v):
                raise self._missing_label(v, f" at index {i!r}")
        return np.array([self._code(v) for v in y], dtype=np.int64)

    def _learner(self):
        if self._model is None:
            model = clone(self.estimator)
            params = model.get_params(deep=False)
            model.set_params(pos_label=None)
            if self.seed is not None and "random_state" in params:
                model.set_params(random_state=self.seed)
            self._model = model
        return self._model

    def _classes(self) -> list | None:
        """``classes=`` for ``partial_fit``: the codes on the first call; afterwards the
        learner has them (and checking the argument again costs ~25 us a row)."""
        return None if self._fitted() else [0, 1]

    def _fitted(self) -> bool:
        """Whether the learner has learnt; raises when an overflow discarded it (then the
        stream cannot go on: predicting the first class and starting a new model from
        the next row, as before session 20, hid the loss)."""
        model = self._model
        if model is None:
            return False
        if hasattr(model, "classes_"):
            return True
        refuse = getattr(model, "_refuse_discarded", None)
        if refuse is not None:
            refuse()
        return False

    def _decision(self, M: np.ndarray) -> np.ndarray:
        """The score minus the learner's ``threshold``: > 0 exactly where ``predict`` gives
        the positive class (``pos_label`` is ``classes_[1]`` here: :meth:`_learner`)."""
        return self._model.decision_function(M) - decision_cut(self._model)

    def _decision_one(self, x: dict) -> float:
        """:meth:`_decision` of one feature dict. When the learner scores as every skewlearn
        online learner does, the row is built and checked here and scored directly, as
        ``decision_function`` would after its validation (~10 us of a one-row call)."""
        model = self._model
        if _plain_scores(type(model)) and model.__dict__.get("classes_") is self._taught:
            raw = model._raw_score_row(self._checked_values(x))
            if math.isfinite(raw):
                return (raw if model._pos_is_last() else -raw) - decision_cut(model)
        # any other learner, one refit by hand, or a non-finite score (whose error names
        # the overflow)
        return float(self._decision(self._ready_row(x))[0])

    # ------------------------------------------------------------------ River API
    def learn_one(self, x: dict, y: Hashable) -> None:
        if self._order is None:
            self._fix_order(x.keys())
        elif not self._new_keys_named and self.features is None:
            self._new_keys(x)
        if y.__class__ not in _PLAIN_LABELS and _is_missing(y):
            raise self._missing_label(y)
        code = self._code(y)
        model = self._model if self._model is not None else self._learner()
        taught = self._taught
        if (
            taught is not None
            and model.__dict__.get("classes_") is taught
            and type(model)._run is OnlineClassifier._run
        ):
            # A later row: what partial_fit would validate is settled here (a C-contiguous
            # float64 row of the model's width, labels from its own classes_ [0, 1]), so
            # only the checks that depend on the values and settings run (~8 us saved).
            model._check_params_unchanged()
            row = self._ready_row(x)
            ypm = np.array((1.0 if code == model.pos_label_ else -1.0,))
            model._learn_signed(row, ypm)
            return
        # (the row checked here too, for the message that names the feature at fault)
        model.partial_fit(self._ready_row(x), np.array((code,)), classes=self._classes())
        self._taught = model.__dict__.get("classes_")

    def learn_many(self, X: pd.DataFrame, y: pd.Series) -> None:
        X = _pandas_frame(X, "learn_many")
        if len(X) == 0:
            return
        codes = self._codes(_labels(y))
        if self._order is None:
            self._fix_order(list(X.columns))
        else:
            self._new_keys(X.columns)
        model = self._learner()
        model.partial_fit(self._checked_matrix(X), codes, classes=self._classes())
        self._taught = model.__dict__.get("classes_")

    def predict_proba_one(self, x: dict, **kwargs: Any) -> dict[Any, float]:
        """``{c0: P(c0), c1: P(c1)}`` for one row (see the class docstring). ``kwargs``:
        River's keyword arguments of a prediction (a ``compose.Pipeline`` passes every one
        it was given to a last step that takes ``**kwargs``); skewlearn's learners have no
        prediction options, so they are ignored, as River's own classifiers without any do."""
        c0, c1 = self.classes
        if self._model is None or not hasattr(self._model, "classes_"):  # (not fitted)
            self._fitted()  # raises if an overflow discarded the learner
            return {c0: 0.5, c1: 0.5}
        p0, p1 = _logistic_pair(self._decision_one(x))
        return {c0: p0, c1: p1}

    def predict_one(self, x: dict, **kwargs: Any) -> Any:
        """The predicted label, one of ``classes``: ``c1`` where the learner's score is above
        its cut, as its ``predict``. ``kwargs`` are ignored (see :meth:`predict_proba_one`)."""
        c0, c1 = self.classes
        if self._model is None or not hasattr(self._model, "classes_"):  # (not fitted)
            self._fitted()  # raises if an overflow discarded the learner
            return c0
        return c1 if self._decision_one(x) > 0 else c0

    def predict_proba_many(self, X: pd.DataFrame) -> pd.DataFrame:
        X = _pandas_frame(X, "predict_proba_many")
        c0, c1 = self.classes
        if not self._fitted() or len(X) == 0:  # (validation refuses 0 rows)
            p = np.full((len(X), 2), 0.5)
        else:
            p = _logistic_columns(self._decision(self._checked_matrix(X)))
        return pd.DataFrame({c0: p[:, 0], c1: p[:, 1]}, index=X.index, columns=[c0, c1])

    def predict_many(self, X: pd.DataFrame) -> pd.Series:
        X = _pandas_frame(X, "predict_many")
        c0, c1 = self.classes
        if not self._fitted() or len(X) == 0:  # (validation refuses 0 rows)
            return pd.Series([c0] * len(X), index=X.index, dtype=object)
        s = self._decision(self._checked_matrix(X))
        return pd.Series(np.where(s > 0, c1, c0).tolist(), index=X.index, dtype=object)

    @property
    def model(self) -> OnlineClassifier | None:
        """The fitted skewlearn learner (None before the first learning call)."""
        return self._model


class RiverMetric(BinaryMetric):
    """A skewlearn streaming metric as a River binary metric.

    ``update(y_true, y_pred)`` passes ``y_true == pos_val`` and, for a label metric
    (F1, FBeta, GMean, MistakeRate), ``y_pred == pos_val``; for a score metric (exact
    :class:`~skewlearn.metrics.ROCAUC` and :class:`~skewlearn.metrics.PRAUC`, their windowed
    versions, the histogram AUROC/AUPRC) the probability of
    ``pos_val`` (``y_pred[pos_val]`` when River passes a dict, else ``y_pred`` itself). The
    metric is updated exactly, so unlike River's own ``ROCAUC`` (an approximation on a grid
    of thresholds) the wrapped :class:`~skewlearn.metrics.ROCAUC` equals scikit-learn's
    ``roc_auc_score`` on the pairs seen. A River classifier's scores are probabilities, so
    build the histogram metrics with ``transform="identity"``: their default sigmoid maps
    [0, 1] into [0.5, 0.73], about a quarter of the bins, and their :meth:`bin_error
    <skewlearn.metrics.HistogramPRAUC.bin_error>` grows accordingly (the sigmoid suits
    unbounded scores, e.g. an anomaly detector's). ``revert`` and sample weights are not
    supported (the exact metrics keep no per-sample record to remove; weights would change
    their definition): both raise.

    Parameters
    ----------
    metric : StreamingMetric
        A fresh skewlearn streaming metric whose ``pos_label`` is the default (1/True).
    pos_val : label, default=True
        The positive label of the stream. A label that can never equal it (text against
        the default ``True``, a number against a text ``pos_val``) raises, as the
        wrapped metric refuses it, rather than counting as a negative.

    Examples
    --------
    >>> from river import datasets, evaluate, linear_model
    >>> from skewlearn.metrics import ROCAUC
    >>> from skewlearn.compat.river import RiverMetric
    >>> m = evaluate.progressive_val_score(
    ...     datasets.Phishing(), linear_model.LogisticRegression(), RiverMetric(ROCAUC())
    ... )
    >>> round(m.get(), 4) > 0.9
    True
    """

    def __init__(self, metric: StreamingMetric, pos_val: Hashable = True):
        if isinstance(metric, type):
            raise TypeError(
                f"metric is the class {metric.__name__}, not an instance of it; pass an "
                f"instance, e.g. RiverMetric({metric.__name__}())."
            )
        if not isinstance(metric, StreamingMetric) or (
            isinstance(metric, Confusion) and type(metric).get is Confusion.get
        ):
            raise TypeError(
                "metric must be a skewlearn streaming metric with a float value (e.g. "
                f"ROCAUC(), F1(), GMean(), HistogramPRAUC()); got {type(metric).__name__}."
            )
        if metric.pos_label != 1:
            raise ValueError(
                f"metric.pos_label must be 1 (True), since RiverMetric passes y == pos_val; "
                f"got {metric.pos_label!r}. Build the metric with its default pos_label and "
                "set pos_val here."
            )
        self.metric = metric
        # River's clone deep-copies the parameters, and this one holds the counts
        self._fresh = copy.deepcopy(metric)
        super().__init__(cm=None, pos_val=pos_val)

    def clone(self, new_params: dict | None = None, include_attributes: bool = False) -> Self:
        """A new wrapper around the metric as it was given (so give a fresh one), not
        updated with any data since: River's ``clone`` contract; deep-copying ``metric``
        would copy its counts. ``new_params`` replace ``metric`` / ``pos_val``;
        ``include_attributes`` has nothing to copy here and is ignored."""
        params = {"metric": copy.deepcopy(self._fresh), "pos_val": self.pos_val}
        params.update(new_params or {})
        return type(self)(**params)

    @property
    def requires_labels(self) -> bool:
        return not type(self.metric).requires_scores

    @property
    def bigger_is_better(self) -> bool:
        return not isinstance(self.metric, MistakeRate)

    @property
    def works_with_weights(self) -> bool:
        return False

    def update(self, y_true: Hashable, y_pred: Hashable | dict[Any, float], w: float = 1.0) -> None:
        if w != 1.0:
            raise ValueError(f"RiverMetric does not support sample weights; got w={w!r}. Use w=1.")
        if _is_missing(y_true):
            raise ValueError(
                f"y_true holds a missing label ({y_true!r}); a metric needs the class of every "
                "sample, and counting it as negative would be silently wrong. Skip the "
                "unlabelled samples (River's progressive_val_score never passes them)."
            )
        self._check_label(y_true, "y_true")
        truth = bool(y_true == self.pos_val)
        value: Any  # a label test, the score of pos_val, or y_pred (which the metric checks)
        if self._requires_labels:
            self._check_label(y_pred, "y_pred")
            value = bool(y_pred == self.pos_val)
        elif isinstance(y_pred, dict):
            value = y_pred.get(self.pos_val, 0.0)
        else:
            value = y_pred  # checked by the metric (text, NaN and None are refused)
        self.metric.update(truth, value)

    def _check_label(self, value, name: str) -> None:
        """Refuse a label that can never equal ``pos_val``: text against a number or bool,
        or a number against text. The comparison would count every such sample as
        negative, silently (F1 0, ROC AUC NaN for a stream of "spam"/"ham" under the
        default ``pos_val=True``), where the wrapped metric refuses such labels itself.
        Other values (River's None before a model has learnt, ...) pass as in River,
        except a dict: class probabilities where a label belongs never equal ``pos_val``
        either (F1 stayed 0)."""
        if isinstance(value, dict):
            what = type(self.metric).__name__
            raise ValueError(
                f"{name} holds {value!r}, a dict (class probabilities, as River's "
                f"predict_proba_one returns); {what} counts labels, and a dict never equals "
                f"pos_val={self.pos_val!r}, so it would count as negative. Pass the label "
                "(a model's predict_one), or use a score metric (ROCAUC, PRAUC) for "
                "probabilities."
            )
        found = _label_type(value)
        wanted = _label_type(self.pos_val)
        if found is None or wanted is None or found == wanted:
            return
        held = "text" if found == "text" else "a number"
        pos_is = "text" if wanted == "text" else "a number"
        if name == "y_true":
            fix = (
                "no label of this stream can equal it, so every sample would count as "
                f"negative. Pass pos_val=<the stream's positive label> (e.g. pos_val={value!r})."
            )
        else:
            fix = (
                "such a prediction can never equal it and would count as negative. Pass "
                "predicted labels of the type of y_true (a model's predict_one)."
            )
        raise ValueError(
            f"{name} holds {value!r}, {held}, but pos_val={self.pos_val!r} is {pos_is}: {fix}"
        )

    def revert(self, y_true: Hashable, y_pred: Hashable | dict[Any, float], w: float = 1.0) -> None:
        raise NotImplementedError(
            "skewlearn's streaming metrics cannot forget a sample; use River's own metric "
            "(or river.utils.Rolling over it) for windowed values."
        )

    def get(self) -> float:
        value = self.metric.get()
        return float(value) if value == value else math.nan

    def __repr__(self) -> str:
        """River's line for a metric, with the wrapped metric named as River names the
        metric inside its own wrappers (``RiverMetric(ROCAUC): 95.34%``): River prints
        metrics by class name, and two wrapped metrics would read alike."""
        name = type(self).__name__
        return super().__repr__().replace(name, f"{name}({type(self.metric).__name__})", 1)
