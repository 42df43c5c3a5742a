"""The quick validation path equals scikit-learn's full validation.

A later ``partial_fit``/``test_then_train`` call, and every ``decision_function``/``predict``,
skips ``validate_data`` when the input is already in the form it would return
(``BinaryClassifier._ready_input``, ``_known_labels``; session 12, ~0.5 ms saved a call).
Each case below runs twice on copies of one started model: as given, and with the quick
path switched off (``_ready_input`` returning None, so everything goes through
``validate_data``). The outcomes must be the same: the same exception type and message,
or the same scores, state and warnings.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from skewlearn import AROW, KOIL, OMCSL, KernelASLS, PassiveAggressive

RNG = np.random.default_rng(5)
X0 = RNG.normal(size=(40, 3))
Y0 = np.where(X0[:, 0] > 0.3, 1, 0)
XB = RNG.normal(size=(6, 3))
YB = np.array([1, 0, 0, 1, 0, 0])


def _outcome(model, call, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = getattr(model, call)(*args, **kwargs)
            if call == "partial_fit":
                out = model.decision_function(XB)
        except Exception as exc:
            return ("raised", type(exc).__name__, str(exc)), []
    state = {k: np.asarray(v).copy() for k, v in vars(model).items() if k.endswith("_")}
    return ("ok", np.asarray(out), state), [(w.category.__name__, str(w.message)) for w in caught]


def _both(model, call, *args, **kwargs):
    quick = copy.deepcopy(model)
    full = copy.deepcopy(model)
    full._ready_input = lambda X: None
    return _outcome(quick, call, *args, **kwargs), _outcome(full, call, *args, **kwargs)


def _same(a, b):
    (ra, wa), (rb, wb) = a, b
    assert wa == wb
    assert ra[0] == rb[0]
    if ra[0] == "raised":
        assert ra == rb
        return
    np.testing.assert_array_equal(ra[1], rb[1])
    assert ra[2].keys() == rb[2].keys()
    for k in ra[2]:
        np.testing.assert_array_equal(ra[2][k], rb[2][k], err_msg=k)


LATER_CALLS = {
    "plain": (XB, YB, None),
    "csr": (sp.csr_matrix(XB), YB, None),
    "csr_array": (sp.csr_array(XB), YB, None),
    "classes again": (XB, YB, [0, 1]),
    "other classes": (XB, YB, [1, 2]),
    "new label": (XB, np.array([1, 0, 2, 1, 0, 0]), None),
    "string labels": (XB, YB.astype(str), None),
    "bool labels": (XB, YB.astype(bool), None),
    "float labels": (XB, YB.astype(float), None),
    "float 0.5 label": (XB, np.array([1, 0, 0.5, 1, 0, 0]), None),
    "NaN label": (XB, np.array([1, 0, np.nan, 1, 0, 0]), None),
    "column y": (XB, YB[:, None], None),
    "list y": (XB, YB.tolist(), None),
    "short y": (XB, YB[:4], None),
    "NaN in X": (np.where(np.eye(6, 3) > 0, np.nan, XB), YB, None),
    "huge X": (XB * 1e200, YB, None),
    "float32 X": (XB.astype(np.float32), YB, None),
    "int X": (np.ones((6, 3), dtype=np.int64), YB, None),
    "Fortran X": (np.asfortranarray(XB), YB, None),
    "strided X": (np.hstack([XB, XB])[:, ::2], YB, None),
    "wrong width": (np.ascontiguousarray(XB[:, :2]), YB, None),
    "wrong width csr": (sp.csr_matrix(XB[:, :2]), YB, None),
    "no rows": (XB[:0], YB[:0], None),
    "1-D X": (XB[0], YB[:1], None),
    "object X": (XB.astype(object), YB, None),
    "complex X": (XB.astype(complex), YB, None),
}


@pytest.mark.parametrize(
    "est",
    [PassiveAggressive(), AROW(), KOIL(budget_pos=5, budget_neg=5, random_state=0),
     OMCSL(random_state=0)],
    ids=lambda e: type(e).__name__,
)  # fmt: skip
@pytest.mark.parametrize("case", list(LATER_CALLS), ids=str)
@pytest.mark.parametrize("call", ["partial_fit", "test_then_train"])
def test_a_later_call_behaves_as_with_full_validation(est, case, call):
    X, y, classes = LATER_CALLS[case]
    model = copy.deepcopy(est).partial_fit(X0, Y0, classes=[0, 1])
    _same(*_both(model, call, X, y, classes=classes))


@pytest.mark.parametrize("case", list(LATER_CALLS), ids=str)
@pytest.mark.parametrize(
    "est", [PassiveAggressive(), KernelASLS(reduced_rate=0.5, random_state=0)],
    ids=lambda e: type(e).__name__,
)  # fmt: skip
@pytest.mark.parametrize("call", ["decision_function", "predict"])
def test_prediction_behaves_as_with_full_validation(est, case, call):
    """Batch learners share the path (KernelASLS takes dense input only)."""
    X = LATER_CALLS[case][0]
    model = copy.deepcopy(est).fit(X0, Y0)
    _same(*_both(model, call, X))


def test_a_model_fitted_on_a_dataframe_still_checks_feature_names():
    frame = pd.DataFrame(X0, columns=["a", "b", "c"])
    model = PassiveAggressive().partial_fit(frame, Y0, classes=[0, 1])
    for call, args in [("partial_fit", (XB, YB)), ("decision_function", (XB,))]:
        quick, full = _both(model, call, *args)
        _same(quick, full)
        assert any("feature names" in message for _, message in quick[1])


def test_string_classes_take_the_quick_path_and_refuse_numbers():
    labels = np.where(Y0 == 1, "fraud", "ok")
    model = AROW().partial_fit(X0, labels)
    assert model._known_labels(np.array(["ok", "fraud"]), 2)
    assert not model._known_labels(np.array([0, 1]), 2)
    _same(*_both(model, "partial_fit", XB, np.array([0, 1, 0, 1, 0, 0])))
    _same(*_both(model, "partial_fit", XB, np.where(YB == 1, "fraud", "ok")))


def test_non_integral_float_classes_never_take_the_quick_path():
    """scikit-learn calls such labels continuous; a first batch holding only 1.0 with
    classes=[0.5, 1.0] starts a model whose later 0.5 labels it refuses."""
    model = PassiveAggressive().partial_fit(X0[:3], np.ones(3), classes=[0.5, 1.0])
    assert not model._known_labels(np.array([0.5, 1.0]), 2)
    assert model._known_labels(np.array([1, 1]), 2)
    _same(*_both(model, "partial_fit", XB[:2], np.array([0.5, 1.0])))
