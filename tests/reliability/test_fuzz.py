"""Hypothesis fuzzing with fixed, small example budgets (derandomized, no deadline).

* learners: random streams, random hyperparameters drawn inside each estimator's own
  ``_parameter_constraints`` (so a new estimator is fuzzed with its documented ranges);
  the model state and outputs stay finite, and the only errors are the documented ones;
* streaming metrics equal the batch metrics of :mod:`skewlearn.metrics.batch` on
  adversarial scores (±inf, subnormal, huge, all tied) in random batches — the prefix
  comparisons with scikit-learn live in tests/metrics/test_streaming.py;
* readers: random valid files with extreme numbers, BOM and CRLF, and LIBSVM lines with
  shuffled or duplicated indices (random corruptions are fuzzed in
  tests/datasets/test_readers.py::test_corruption_gives_data_or_value_error).
"""

from __future__ import annotations

import math
import numbers
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sklearn.base import clone, is_classifier
from sklearn.utils._param_validation import Interval, StrOptions

from skewlearn._discovery import all_estimators
from skewlearn.datasets import read
from tests.datasets.test_readers import write_arff, write_csv, write_keel, write_libsvm

from .test_table import make, out

ESTIMATORS = all_estimators()
FUZZ = settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

#: Metrics and readers are cheap: a larger budget.
CHEAP = settings(FUZZ, max_examples=40)

#: The documented errors a valid-looking configuration may meet: a cross-parameter rule
#: of the estimator ("... must ...") or the overflow guard of skewlearn.base.
DOCUMENTED = re.compile(r"must|[Uu]se |Scale the features|n_neighbors|landmarks|minority|exceed")


# ----------------------------------------------------------------------------- learners
def _interval(rule: Interval, extreme: bool):
    """Values inside ``rule``, kept to a modest span so examples stay fast.

    ``extreme=False`` (every estimator): a real interval starting at 0 is sampled from
    [1e-6, ...]. ``extreme=True`` (the families fuzzed to the limits): subnormal and
    1e300-sized values too.
    """
    if rule.type is numbers.Integral:
        lo = -5 if rule.left is None else int(rule.left) + (rule.closed in ("right", "neither"))
        hi = (
            lo + 12
            if rule.right is None
            else int(rule.right) - (rule.closed in ("left", "neither"))
        )
        return st.integers(lo, min(hi, lo + 12))
    lo = -1e3 if rule.left is None else float(rule.left)
    hi = min(lo + 1e2, 1e3) if rule.right is None else float(rule.right)
    if rule.right is None and lo < 0:
        hi = 1e2
    open_lo = rule.left is not None and rule.closed in ("right", "neither")
    open_hi = rule.right is not None and rule.closed in ("left", "neither")
    if lo == 0.0 and not extreme:
        lo, open_lo = 1e-6, False
    inside = st.floats(lo, hi, exclude_min=open_lo, exclude_max=open_hi, allow_nan=False)
    if not extreme:
        return inside
    edges = [v for v in (5e-324, 1e-300, 1e300) if rule.is_satisfied_by(v)]
    return inside | st.sampled_from(edges) if edges else inside


def _rule_strategy(rule, extreme):
    if isinstance(rule, Interval):
        return _interval(rule, extreme)
    if isinstance(rule, StrOptions):
        return st.sampled_from(sorted(o for o in rule.options if o not in rule.deprecated))
    if rule == "boolean":
        return st.booleans()
    if rule is None:
        return st.none()
    return None


def hyperparameters(cls, extreme=False):
    """A strategy for the parameters whose every rule can be sampled."""
    fields = {}
    for name, rules in cls._parameter_constraints.items():
        if not isinstance(rules, list):
            continue
        strategies = [_rule_strategy(r, extreme) for r in rules]
        if strategies and all(s is not None for s in strategies):
            fields[name] = st.one_of(strategies)
    return st.fixed_dictionaries(fields)


@st.composite
def streams(draw):
    n = draw(st.integers(4, 40))
    d = draw(st.integers(1, 4))
    scale = 10.0 ** draw(st.integers(-6, 6))
    values = st.floats(-1e3, 1e3, allow_nan=False) | st.just(0.0)
    X = np.array(draw(st.lists(values, min_size=n * d, max_size=n * d))).reshape(n, d) * scale
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[draw(st.integers(0, n - 1))] = 1  # both classes somewhere
    y[(draw(st.integers(0, n - 1)) + 1) % n] = 0
    if y.sum() in (0, n):
        y[0] = 1 - y[0]
    cut = draw(st.integers(1, n))
    sparse = draw(st.booleans())
    return X, y, cut, sparse


def _check_finite(est):
    for name, value in vars(est).items():
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            assert np.isfinite(value).all(), name


def _fuzz_learner(cls, extreme):
    @FUZZ
    @given(params=hyperparameters(cls, extreme), stream=streams())
    def run(params, stream):
        X, y, cut, sparse = stream
        est = clone(make(cls)).set_params(**params)
        if sparse and est.__sklearn_tags__().input_tags.sparse:
            X = sp.csr_matrix(X)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if hasattr(est, "partial_fit"):
                    est.partial_fit(X[:cut], y[:cut], classes=[0, 1])
                    if cut < len(y):
                        est.partial_fit(X[cut:], y[cut:])
                else:
                    est.fit(X, y)
                got = out(est, X)
        except ValueError as exc:
            reported = REPORTED.get(cls.__name__)
            if reported and reported in str(exc):
                return
            assert DOCUMENTED.search(str(exc)), f"{params}: {exc}"
            return
        _check_finite(est)
        got = got.toarray() if sp.issparse(got) else got
        assert np.isfinite(got).all(), params
        if is_classifier(est):
            assert set(est.predict(X).tolist()) <= {0, 1}

    run()


#: Errors that fuzzing found in modules this suite's owner may not edit, reported to the
#: lead (docs/reliability.md, "Open failures"): for these estimators only, this one
#: undocumented message is tolerated; everything else is still checked. Remove the entry
#: when the fix lands.
REPORTED: dict[str, str] = {}


@pytest.mark.parametrize("cls", ESTIMATORS.values(), ids=ESTIMATORS.keys())
def test_random_streams_and_hyperparameters(cls):
    _fuzz_learner(cls, extreme=False)


#: Families fuzzed with subnormal and 1e300 hyperparameters as well (the modules whose
#: numerics were reviewed: linear, auc, KOIL, batch ASLS and its baselines).
EXTREME = {
    n: c
    for n, c in ESTIMATORS.items()
    if c.__module__.startswith(
        ("skewlearn.linear", "skewlearn.auc", "skewlearn.kernel.koil", "skewlearn.batch.asls")
    )
}


@pytest.mark.parametrize("cls", EXTREME.values(), ids=EXTREME.keys())
def test_extreme_hyperparameters(cls):
    _fuzz_learner(cls, extreme=True)


# ----------------------------------------------------------------------------- metrics
SCORES = st.sampled_from([-np.inf, np.inf, -1e308, 1e308, 5e-324, -5e-324, 0.0, -0.0, 1.0])


@st.composite
def scored_stream(draw):
    n = draw(st.integers(1, 40))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(SCORES | st.floats(-1e3, 1e3), min_size=n, max_size=n)))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    return y, s, cuts


@CHEAP
@given(scored_stream())
def test_streaming_metrics_equal_batch_on_adversarial_scores(data):
    from skewlearn.metrics import F1, ROCAUC, GMean, MistakeRate, f1, gmean, roc_auc

    y, s, cuts = data
    p = np.where(s > 0, 1, -1)
    auc, f, g, mr = ROCAUC(), F1(), GMean(), MistakeRate()
    for lo, hi in zip([0, *cuts], [*cuts, len(y)]):
        auc.update_many(y[lo:hi], s[lo:hi])
        for m in (f, g, mr):
            m.update_many(y[lo:hi], p[lo:hi])
    both = len(set(y.tolist())) == 2
    if both:
        assert auc.get() == pytest.approx(roc_auc(y, s), rel=1e-12, abs=1e-15)
        assert g.get() == pytest.approx(gmean(y, p), rel=1e-12)
    else:
        assert math.isnan(auc.get())
    assert f.get() == pytest.approx(f1(y, p, pos_label=1), rel=1e-12)
    assert mr.get() == pytest.approx(np.mean(p != y), rel=1e-12)


def test_streaming_auc_refuses_nan_and_non_numeric_scores():
    from skewlearn.metrics import ROCAUC

    with pytest.raises(ValueError, match="NaN"):
        ROCAUC().update_many([1, -1], [0.5, np.nan])
    with pytest.raises(TypeError, match="got strings"):  # as the batch roc_auc
        ROCAUC().update_many([1, -1], ["a", "b"])


# ----------------------------------------------------------------------------- readers
EXTREME_VALUES = st.sampled_from([5e-324, -5e-324, 1e-300, 1e300, -1e300, 1.7976931348623157e308])


@st.composite
def tables(draw):
    d = draw(st.integers(1, 4))
    n = draw(st.integers(1, 6))
    values = EXTREME_VALUES | st.floats(-1e6, 1e6, allow_nan=False) | st.just(0.0)
    X = np.array(draw(st.lists(values, min_size=n * d, max_size=n * d))).reshape(n, d)
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    return X, y, draw(st.booleans()), draw(st.booleans())


@CHEAP
@given(tables())
def test_readers_round_trip_extreme_numbers_with_bom_and_crlf(tmp_path_factory, table):
    X, y, bom, crlf = table
    tmp = tmp_path_factory.mktemp("rt")
    paths = {"dat": tmp / "t.dat", "csv": tmp / "t.csv", "arff": tmp / "t.arff"}
    write_keel(paths["dat"], X, y)
    write_csv(paths["csv"], X, y)
    write_arff(paths["arff"], X, y)
    paths["svm"] = tmp / "t.svm"
    write_libsvm(paths["svm"], X, y, np.random.default_rng(0))
    for key, path in paths.items():
        raw = path.read_bytes()
        if crlf:
            raw = raw.replace(b"\n", b"\r\n")
        path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + raw)
        Xr, yr, _ = read(path, **({"n_features": X.shape[1]} if key == "svm" else {}))
        Xr = Xr.toarray() if sp.issparse(Xr) else Xr
        np.testing.assert_array_equal(Xr, X, err_msg=key)
        np.testing.assert_array_equal(yr, y, err_msg=key)


@CHEAP
@given(
    entries=st.lists(st.tuples(st.integers(1, 6), st.floats(-9, 9).filter(bool)), max_size=6),
    duplicate=st.booleans(),
)
def test_libsvm_shuffled_and_duplicate_indices(tmp_path_factory, entries, duplicate):
    """Any order reads as sorted CSR; a repeated index is an error naming the line."""
    entries = list({j: v for j, v in entries}.items())  # distinct indices, any order
    if duplicate and entries:
        entries.append(entries[0])
    path = tmp_path_factory.mktemp("svm") / "a.svm"
    path.write_text("1 " + " ".join(f"{j}:{v!r}" for j, v in entries) + "\n-1 1:1\n")
    if duplicate and entries:
        with pytest.raises(ValueError, match=rf"line 1: index {entries[0][0]} appears twice"):
            read(path)
        return
    X, _, _ = read(path, n_features=6)
    assert X.has_sorted_indices
    expected = np.zeros(6)
    for j, v in entries:
        expected[j - 1] = v
    np.testing.assert_array_equal(X.toarray()[0], expected)
