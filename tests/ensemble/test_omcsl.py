"""OMCSL against hand-computed steps, a slow reference of Algorithm 1, its base learner and
the streaming metrics; the generic path against the fast path."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import f1_score

from skewlearn import OMCSL, CostSensitiveOGD, CostSensitivePA, PassiveAggressive
from skewlearn._rng import rng_uniform, seed_state
from skewlearn.metrics import HistogramPRAUC, HistogramROCAUC, pr_auc, roc_auc
from tests import naive
from tests.naive import omcsl as ref
from tests.naive.cost_sensitive import cpa

X3 = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])
Y3 = np.array([1, -1, -1])


def _stream(n=600, d=5, seed=0, pos=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = X @ rng.normal(size=d) + 0.7 * rng.normal(size=n)
    return X, (s > np.quantile(s, 1 - pos)).astype(int)


def _uniforms(seed, n):
    state = seed_state(seed)
    return [rng_uniform(state) for _ in range(n)]


def _softmax(gamma, m):
    v = gamma * np.nan_to_num(m, nan=0.0)
    e = np.exp(v - v.max())
    return e / e.sum()


def test_k1_three_samples_by_hand():
    # K = 1: theta = 1/2, c+ = 3/4, c- = 1/4; eta = 0.1, hinge, x <- [x, 1]
    # t=1: f = 0, y=+1 -> w = 0.1*0.75*[1, 2, 1] = [.075, .15, .075]
    # t=2: f = .15 - .15 + .075 = .075, y=-1, z = -.075 < 1 -> w -= .025*[2, -1, 1]
    #      = [.025, .175, .05]
    # t=3: f = -.025 + .175 + .05 = .2, y=-1 -> w -= .025*[-1, 1, 1] = [.05, .15, .025]
    # F (Eq. 4): t1 y=1, f=0 -> c=1; t2 f>0 -> c=2; t3 f>0 -> c=3; a=0 -> F = 0
    clf = OMCSL(n_learners=1)
    scores = clf.test_then_train(X3, Y3)
    np.testing.assert_allclose(clf.costs_, [0.75])
    np.testing.assert_allclose(clf.weights_, [[0.05, 0.15, 0.025]], atol=1e-15)
    np.testing.assert_allclose(scores, [0.0, 0.075, 0.2], atol=1e-15)
    np.testing.assert_array_equal(clf.f1_counts_, [[0, 3]])
    assert clf.measures_[0] == 0.0 and clf.probabilities_[0] == 1.0


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(("loss", "schedule"), [("hinge", "constant"), ("logistic", "invsqrt")])
def test_k1_equals_its_base_learner(loss, schedule, sparse):
    """Eq. (1) with K = 1 gives theta = 1/2: c+ = 3/4, c- = 1/4."""
    X, y = _stream(seed=1)
    Xin = sp.csr_matrix(np.where(np.abs(X) < 0.5, 0.0, X)) if sparse else X
    a = OMCSL(n_learners=1, loss=loss, schedule=schedule, eta=0.3, random_state=0)
    b = CostSensitiveOGD(
        objective="weighted", c_pos=0.75, c_neg=0.25, loss=loss, schedule=schedule, eta=0.3
    )
    np.testing.assert_array_equal(a.test_then_train(Xin, y), b.test_then_train(Xin, y))
    np.testing.assert_array_equal(a.weights_[0], b.weights_)
    np.testing.assert_array_equal(a.decision_function(Xin), b.decision_function(Xin))


@pytest.mark.parametrize("measure", ["f1", "auroc", "auprc"])
@pytest.mark.parametrize("selection", ["sample", "best"])
@pytest.mark.parametrize(("loss", "scale"), [("hinge", 1.0), ("logistic", 1.0), ("hinge", 3.0)])
def test_matches_slow_reference_of_algorithm_1(measure, selection, loss, scale):
    X, y = _stream(n=400, seed=2)
    ypm = np.where(y == 1, 1, -1)
    clf = OMCSL(
        n_learners=5, measure=measure, selection=selection, loss=loss, gamma=20.0, n_bins=16,
        score_scale=scale, random_state=3,
    )  # fmt: skip
    scores, trace = clf.test_then_train(X, y, return_trace=True)
    rows_p: list[np.ndarray] = []
    W, rscores, chosen, meas, p = ref.omcsl(
        naive.augment(X), ypm, K=5, measure=measure, gamma=20.0, loss=loss, n_bins=16,
        uniforms=_uniforms(3, len(y) + 1), selection=selection, score_scale=scale,
        row_probabilities=rows_p,
    )  # fmt: skip
    np.testing.assert_allclose(clf.weights_, W, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(trace.learner, chosen)
    np.testing.assert_allclose(scores, rscores, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(clf.measures_, meas, rtol=1e-12)
    np.testing.assert_allclose(clf.probabilities_, p, rtol=1e-12)
    np.testing.assert_array_equal(trace.cost, clf.costs_[trace.learner])
    # each row's leader (first of largest p; the reference's AUROC rounds otherwise, so
    # ties are up to 1e-12) and its cost (session 25: leader_cost = cost survived)
    for t, pt in enumerate(rows_p):
        assert trace.leader[t] == np.flatnonzero(pt >= pt.max() - 1e-12)[0]
    np.testing.assert_array_equal(trace.leader_cost, clf.costs_[trace.leader])


@pytest.mark.parametrize(
    ("measure", "scale"),
    [("f1", 1.0), ("auroc", 1.0), ("auprc", 1.0), ("auroc", 4.0), ("auprc", 0.5)],
)
def test_measures_and_probabilities_at_every_step(measure, scale):
    """Row by row: M^j equals the batch F-measure / the histogram metric (same scale) of
    learner j's pre-update scores so far, and p equals the softmax of gamma * M."""
    X, y = _stream(n=250, seed=4, pos=0.2)
    clf = OMCSL(
        n_learners=4, measure=measure, n_bins=25, gamma=30.0, score_scale=scale, random_state=0
    )
    clf.partial_fit(X[:1], y[:1], classes=[0, 1])
    past = [[0.0] for _ in range(4)]  # every learner starts at w = 0
    metrics = [
        {"auroc": HistogramROCAUC, "auprc": HistogramPRAUC}.get(measure, HistogramROCAUC)(
            n_bins=25, scale=scale
        ).update(y[0], 0.0)
        for _ in range(4)
    ]
    for t in range(1, len(y)):
        f = clf.weights_ @ naive.augment(X[t : t + 1])[0]  # pre-update score of each learner
        sel = clf.selected_
        assert clf.test_then_train(X[t : t + 1], y[t : t + 1])[0] == pytest.approx(f[sel])
        for j in range(4):
            past[j].append(f[j])
            metrics[j].update(y[t], f[j])
            if measure == "f1":
                expect = f1_score(y[: t + 1], np.array(past[j]) > 0, zero_division=0)
            else:
                expect = metrics[j].get()
            got = clf.measures_[j]
            assert (math.isnan(got) and math.isnan(expect)) or got == pytest.approx(
                expect, rel=1e-12, abs=1e-15
            )
        np.testing.assert_allclose(clf.probabilities_, _softmax(30.0, clf.measures_), rtol=1e-12)


def test_trace_scores_come_from_the_selected_learner():
    X, y = _stream(n=300, seed=5)
    clf = OMCSL(n_learners=6, random_state=1)
    clf.partial_fit(X[:100], y[:100])
    W = clf.weights_.copy()
    nxt = clf.selected_
    assert clf.decision_function(X[100:101])[0] == pytest.approx(W[nxt] @ [*X[100], 1.0])
    scores, trace = clf.test_then_train(X[100:], y[100:], return_trace=True)
    assert trace.learner[0] == nxt and scores[0] == pytest.approx(W[nxt] @ [*X[100], 1.0])
    assert clf.selected_cost_ == clf.costs_[clf.selected_]
    best = OMCSL(n_learners=6, selection="best", measure="auroc", random_state=1)
    _, tr = best.test_then_train(X, y, return_trace=True)
    assert best.selected_ == int(np.nanargmax(best.measures_))
    np.testing.assert_array_equal(tr.learner[1:], tr.leader[1:])


@pytest.mark.parametrize("measure", ["f1", "auroc", "auprc"])
@pytest.mark.parametrize("selection", ["sample", "best"])
def test_generic_path_equals_fast_path(measure, selection):
    X, y = _stream(n=200, seed=6)
    kw = {"n_learners": 4, "measure": measure, "selection": selection, "random_state": 5}
    fast = OMCSL(**kw, eta=0.2, loss="logistic")
    base = CostSensitiveOGD(objective="weighted", eta=0.2, loss="logistic")
    generic = OMCSL(**kw, base_estimator=base)
    s_fast = np.concatenate(
        [fast.test_then_train(X[i : i + 1], y[i : i + 1], classes=[0, 1]) for i in range(len(y))]
    )
    pieces = []
    for lo in range(0, len(y), 23):  # any batching gives the same result
        pieces.append(generic.test_then_train(X[lo : lo + 23], y[lo : lo + 23], classes=[0, 1]))
    np.testing.assert_array_equal(s_fast, np.concatenate(pieces))
    for j, est in enumerate(generic.estimators_):
        np.testing.assert_array_equal(est.weights_, fast.weights_[j])
        assert est.c_pos == fast.costs_[j] and est.c_neg == pytest.approx(1 - fast.costs_[j])
    np.testing.assert_array_equal(generic.measures_, fast.measures_)
    np.testing.assert_array_equal(generic.probabilities_, fast.probabilities_)
    assert generic.selected_ == fast.selected_
    np.testing.assert_array_equal(generic.decision_function(X), fast.decision_function(X))


def test_generic_path_with_cost_sensitive_pa_and_cost_params():
    X, y = _stream(n=300, seed=7)
    clf = OMCSL(n_learners=3, base_estimator=CostSensitivePA(C=0.1), random_state=0).fit(X, y)
    for j, est in enumerate(clf.estimators_):
        w, _ = cpa(
            naive.augment(X), np.where(y == 1, 1, -1), c_pos=clf.costs_[j],
            c_neg=1 - clf.costs_[j], C=0.1,
        )  # fmt: skip
        np.testing.assert_allclose(est.weights_, w, rtol=1e-10, atol=1e-12)
    renamed = OMCSL(
        n_learners=2,
        base_estimator=CostSensitiveOGD(objective="weighted"),
        cost_params={"c_pos": "c_pos", "c_neg": "c_neg"},
    ).fit(X, y)
    assert [e.c_pos for e in renamed.estimators_] == list(renamed.costs_)

    # each clone gets its own seed, drawn from OMCSL's random_state
    def seeds(random_state):
        clf = OMCSL(n_learners=4, base_estimator=CostSensitivePA(), random_state=random_state)
        return [e.random_state for e in clf.fit(X, y).estimators_]

    assert len(set(seeds(3))) == 4 and seeds(3) == seeds(3) != seeds(4)


def test_errors():
    X, y = _stream(n=50)
    with pytest.raises(ValueError, match="has no parameter 'c_pos'"):
        OMCSL(base_estimator=PassiveAggressive()).fit(X, y)
    with pytest.raises(ValueError, match="cost_params must map exactly"):
        OMCSL(base_estimator=CostSensitivePA(), cost_params={"pos": "c_pos"}).fit(X, y)
    with pytest.raises(TypeError, match="skewlearn online classifier"):
        from sklearn.linear_model import SGDClassifier

        class Fake(SGDClassifier):
            def test_then_train(self, X, y):  # pragma: no cover - never called
                return None

        OMCSL(base_estimator=Fake()).fit(X, y)
    with pytest.raises(ValueError, match="measure"):
        OMCSL(measure="gmean").fit(X, y)


def test_a_base_learner_that_ignores_the_costs_is_refused():
    """CostSensitiveOGD's default objective="sum" takes its costs from eta_p and the class
    ratio and ignores c_pos/c_neg, so OMCSL(base_estimator=CostSensitiveOGD()) trained K
    identical learners and selected among copies, silently. It is refused before any
    learning, naming the objectives that use the costs; those still work."""
    X, y = _stream(n=200)
    with pytest.raises(ValueError, match=r"objective='sum'\) ignores c_pos and c_neg.*'weighted'"):
        OMCSL(base_estimator=CostSensitiveOGD(), n_learners=3).fit(X, y)
    est = OMCSL(base_estimator=CostSensitiveOGD(), n_learners=3)
    with pytest.raises(ValueError, match="ignores c_pos"):
        est.partial_fit(X, y)
    assert not hasattr(est, "classes_")  # left unfitted: a corrected call starts cleanly
    for objective in ("cost", "weighted"):
        m = OMCSL(base_estimator=CostSensitiveOGD(objective=objective), n_learners=3).fit(X, y)
        scores = [e.decision_function(X) for e in m.estimators_]
        assert not np.array_equal(scores[0], scores[2])


def test_selects_a_sensible_cost_on_an_imbalanced_stream():
    """Learners with a larger c+ should win the F-measure on a 5%-positive stream."""
    X, y = _stream(n=4000, seed=8, pos=0.05)
    clf = OMCSL(random_state=0)
    _, trace = clf.test_then_train(X, y, return_trace=True)
    assert trace.leader_cost[-1000:].mean() > 0.5
    assert np.isclose(clf.probabilities_.sum(), 1.0)


def _saturating_stream(n=2000, seed=0):
    """Unscaled features (sd 30): constant-step OGD scores reach |f| ~ 10-100."""
    rng = np.random.default_rng(seed)
    X = 30.0 * rng.normal(size=(n, 5))
    return X, (X[:, 0] + 20.0 * rng.normal(size=n) > 40.0).astype(int)


@pytest.mark.parametrize("measure", ["auroc", "auprc"])
def test_bin_errors_bound_the_distance_to_the_exact_measure(measure):
    X, y = _saturating_stream(n=800)
    for scale in (1.0, 30.0):
        clf = OMCSL(n_learners=3, measure=measure, score_scale=scale, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            clf.fit(X, y)
        exact = roc_auc if measure == "auroc" else pr_auc
        for j, cp in enumerate(clf.costs_):
            # learner j is CostSensitiveOGD with its costs (test_k1_equals_its_base_learner)
            f = CostSensitiveOGD(objective="weighted", c_pos=cp, c_neg=1 - cp).test_then_train(X, y)
            table = (HistogramROCAUC if measure == "auroc" else HistogramPRAUC)(scale=scale)
            table.update_many(y, f)
            assert clf.bin_errors_[j] == table.bin_error()
            assert abs(clf.measures_[j] - exact(y, f)) <= clf.bin_errors_[j] + 1e-12
    assert OMCSL(measure="f1").fit(X, y).bin_errors_.tolist() == [0.0] * 9


@pytest.mark.parametrize("measure", ["auroc", "auprc"])
def test_saturated_tables_warn_and_name_a_scale_that_works(measure):
    X, y = _saturating_stream()
    clf = OMCSL(measure=measure, random_state=0)
    with pytest.warns(RuntimeWarning, match="is saturated") as caught:
        scores = clf.test_then_train(X, y)
    (w,) = [c for c in caught if "saturated" in str(c.message)]
    assert w.filename == __file__  # points at the caller's line
    named = float(re.search(r"score_scale=([0-9.e+-]+) \(the median", str(w.message)).group(1))
    assert named == pytest.approx(np.median(np.abs(scores)), rel=0.05)
    share = re.search(r"saturated: (\d+)%", str(w.message)).group(1)
    ends = clf.pos_table_[:, [0, -1]].sum() + clf.neg_table_[:, [0, -1]].sum()
    assert int(share) == round(100 * ends / (9 * len(y)))
    # at the named scale the scores spread over the bins: no warning, smaller bin errors
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        fixed = OMCSL(measure=measure, score_scale=named, random_state=0).fit(X, y)
    assert fixed.bin_errors_.max() < 0.5 * clf.bin_errors_.max()
    # the same saturated tables (learning does not depend on gamma) under a gamma whose
    # 1/gamma exceeds every bin error: the bins cost less than Eq. (2) resolves, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        coarse = OMCSL(measure=measure, gamma=0.5 / clf.bin_errors_.max(), random_state=0)
        np.testing.assert_array_equal(coarse.fit(X, y).pos_table_, clf.pos_table_)
    # the F-measure has no bins, and with 2 bins every bin is an end bin: never a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        OMCSL(measure="f1", random_state=0).fit(X, y)
        OMCSL(measure=measure, n_bins=2, random_state=0).fit(X, y)


def test_saturation_warning_comes_once_per_model_and_after_100_rows():
    X, y = _saturating_stream(n=1200)
    clf = OMCSL(measure="auroc", n_learners=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        clf.partial_fit(X[:99], y[:99], classes=[0, 1])  # saturated, but only 99 rows
    with pytest.warns(RuntimeWarning, match="saturated"):
        clf.partial_fit(X[99:100], y[99:100])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for lo in range(100, 1200, 100):  # per-batch calls (River's learn_one): no repeats
            clf.partial_fit(X[lo : lo + 100], y[lo : lo + 100])
    with pytest.warns(RuntimeWarning, match="saturated"):
        clf.fit(X, y)  # a new model


def test_saturation_warning_names_a_typical_score_when_learning_row_by_row():
    """Row by row (River's learn_one calls partial_fit once per row) a call returns one
    score, and the warning named that one score's |f| as the typical one: 6.8 on this
    stream, whose median |f| over the 100 rows the tables held was 77, so the named
    score_scale left the tables saturated. It must name the median |f| of the last 100
    scores returned, whatever the batching."""
    X, y = _saturating_stream(n=300, seed=1)
    for measure in ("auroc", "auprc"):
        clf = OMCSL(measure=measure, random_state=0)
        scores = []
        with pytest.warns(RuntimeWarning, match="saturated") as caught:
            for i in range(len(y)):
                scores.append(clf.test_then_train(X[i : i + 1], y[i : i + 1], classes=[0, 1])[0])
                if any("saturated" in str(c.message) for c in caught):
                    break
        (w,) = [c for c in caught if "saturated" in str(c.message)]
        named = float(re.search(r"score_scale=([0-9.e+-]+) \(the median", str(w.message)).group(1))
        typical = np.median(np.abs(scores[-100:]))
        assert named == pytest.approx(typical, rel=0.05)
        assert abs(scores[-1]) < 0.2 * typical  # (what the last row alone would have named)
        # batches smaller than 100 rows name the same value as one row at a time
        clf = OMCSL(measure=measure, random_state=0)
        with pytest.warns(RuntimeWarning, match="saturated") as caught:
            for lo in range(0, len(scores), 7):
                clf.partial_fit(X[lo : min(lo + 7, len(scores))], y[lo : min(lo + 7, len(scores))],
                                classes=[0, 1])  # fmt: skip
        (w,) = [c for c in caught if "saturated" in str(c.message)]
        assert f"score_scale={float(f'{typical:.2g}')!r} (the median" in str(w.message)


def test_no_saturation_warning_when_the_end_bins_do_not_mix_the_classes():
    """Saturated but separated (positives in the last bin, negatives in the first): the
    bin-error bound stays below 1/gamma, so the tables lose nothing the selection uses."""
    rng = np.random.default_rng(0)
    y = (rng.random(600) < 0.2).astype(int)
    X = np.column_stack([np.where(y == 1, 50.0, -50.0), rng.normal(size=600)])
    for measure in ("auroc", "auprc"):
        clf = OMCSL(measure=measure, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            clf.fit(X, y)
        ends = clf.pos_table_[:, [0, -1]].sum() + clf.neg_table_[:, [0, -1]].sum()
        assert ends > 0.9 * 9 * len(y)
        assert clf.bin_errors_.max() <= 1 / clf.gamma


def test_generic_path_with_a_kernel_learner():
    """OMCSL over NORMA (a kernel learner with class costs): K = 1 is NORMA with c+ = 3/4,
    c- = 1/4, and with K = 3 every learner scores as its NORMA run alone."""
    from skewlearn import NORMA

    X, y = _stream(n=300, seed=7)
    base = NORMA(budget=40, eta=0.3, gamma=0.3)
    one = OMCSL(base_estimator=base, n_learners=1, random_state=0).test_then_train(X, y)
    alone = NORMA(budget=40, eta=0.3, gamma=0.3, c_pos=0.75, c_neg=0.25).test_then_train(X, y)
    np.testing.assert_array_equal(one, alone)
    clf = OMCSL(base_estimator=base, n_learners=3, measure="auroc", random_state=0)
    scores, trace = clf.test_then_train(X, y, return_trace=True)
    for j, c in enumerate(clf.costs_):
        s = NORMA(budget=40, eta=0.3, gamma=0.3, c_pos=c, c_neg=1 - c).test_then_train(X, y)
        np.testing.assert_array_equal(scores[trace.learner == j], s[trace.learner == j])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_member_that_overflows_discards_the_whole_ensemble():
    """A member's overflow discards that member; OMCSL must go with it rather than restart
    one learner while the others keep their history."""
    from sklearn.exceptions import NotFittedError

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3)) * 100
    y = (X[:, 0] > 50).astype(int)
    est = OMCSL(
        base_estimator=CostSensitiveOGD(objective="weighted", eta=1e305),
        n_learners=3,
        random_state=0,
    )
    est.partial_fit(X[:3], y[:3], classes=[0, 1])
    with pytest.raises(ValueError, match=r"OMCSL's learner \d .*overflowed.*whole OMCSL model"):
        est.partial_fit(X[3:], y[3:])
    assert not hasattr(est, "estimators_") and not hasattr(est, "classes_")
    with pytest.raises(NotFittedError):
        est.predict(X[:1])


def test_a_base_estimator_setting_changed_mid_stream_is_refused():
    """set_params(base_estimator__budget=50) after the members were cloned was accepted and
    ignored (the members kept budget 5), silently; the top-level settings were already
    refused (session 9). Now the next call names the nested setting and learns nothing."""
    import pickle

    from skewlearn import NORMA

    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 3))
    y = (X[:, 0] > 0.8).astype(int)
    m = OMCSL(base_estimator=NORMA(budget=5), n_learners=3, random_state=0)
    m.partial_fit(X[:50], y[:50])
    before = pickle.dumps(m)
    m.set_params(base_estimator__budget=50)
    for call in (m.partial_fit, m.test_then_train):
        with pytest.raises(
            ValueError, match=r"base_estimator__budget=5 -> 50 changed \(set_params\)"
        ):
            call(X[50:], y[50:])
    m.set_params(base_estimator__budget=5)
    assert pickle.dumps(m) == before
    m.partial_fit(X[50:], y[50:])  # the original setting is fine again
    m.set_params(base_estimator__budget=50).fit(X, y)  # fit starts over with the new one
    assert {e.budget for e in m.estimators_} == {50}


def test_measures_describe_the_measure_the_model_learnt_with_after_set_params():
    """set_params(measure=...) between calls is refused at the next learning call, but the
    fitted properties read the new setting at once: an AUROC model's bin_errors_ became the
    F-measure's zeros ("exact") or the AUPRC bound of its AUROC tables, and an F-measure
    model's measures_ turned NaN. They must keep describing the model as it learnt."""
    X, y = _stream(300)
    for learnt, other in [("auroc", "f1"), ("auroc", "auprc"), ("f1", "auroc"), ("auprc", "f1")]:
        m = OMCSL(measure=learnt, random_state=0).fit(X, y)
        measures, errors = m.measures_, m.bin_errors_
        m.set_params(measure=other)
        np.testing.assert_array_equal(m.measures_, measures)
        np.testing.assert_array_equal(m.bin_errors_, errors)
        with pytest.raises(ValueError, match=f"measure='{learnt}' -> '{other}' changed"):
            m.partial_fit(X, y)
    neg = y == 0
    m = OMCSL(measure="auroc", random_state=0).partial_fit(X[neg][:5], y[neg][:5], classes=[0, 1])
    assert np.isnan(m.measures_).all()  # one class so far: undefined
    m.set_params(measure="f1")
    assert np.isnan(m.measures_).all() and np.isnan(m.bin_errors_).all()


def test_cost_params_naming_one_parameter_twice_is_refused():
    """cost_params={"c_pos": "c_pos", "c_neg": "c_pos"} set c_pos to c+ and then to
    c- = 1 - c+ (one keyword), leaving c_neg at its default: every learner got costs
    (1 - c+, 0.5), not Eq. (1)'s, without a word."""
    X, y = _stream(100)
    m = OMCSL(
        base_estimator=CostSensitiveOGD(objective="weighted"),
        cost_params={"c_pos": "c_pos", "c_neg": "c_pos"},
        n_learners=3,
    )
    with pytest.raises(ValueError, match="cost_params names 'c_pos' for both"):
        m.fit(X, y)
    assert not hasattr(m, "classes_")


@pytest.mark.parametrize("measure", ["auroc", "auprc"])
def test_one_learner_has_nothing_to_select_and_no_saturation_warning(measure):
    """With n_learners=1 the measure never changes a prediction (p = 1 for the one
    learner: it is CostSensitiveOGD), yet saturated tables warned that the selection was
    at risk and asked for another score_scale, which changes nothing."""
    X, y = _saturating_stream()
    with pytest.warns(RuntimeWarning, match="saturated"):
        OMCSL(measure=measure, n_learners=2, random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        one = OMCSL(measure=measure, n_learners=1, random_state=0).fit(X, y)
    assert one.bin_errors_[0] > 1.0 / one.gamma  # saturated all the same


def test_a_base_estimator_class_instead_of_an_instance_is_named():
    """OMCSL(base_estimator=CostSensitiveOGD) (the class: it has the methods, so parameter
    validation lets it through) was refused with "...; got type", which names neither
    the mistake nor the fix."""
    X, y = _stream(n=50)
    with pytest.raises(
        TypeError, match=r"the class CostSensitiveOGD.*an instance.*CostSensitiveOGD\("
    ):
        OMCSL(base_estimator=CostSensitiveOGD).fit(X, y)


def test_nested_base_estimator_setting_without_base_estimator_is_named():
    """GridSearchCV over omcsl__base_estimator__C with the default base_estimator=None
    failed in scikit-learn's set_params with "'NoneType' object has no attribute
    'set_params'"; the error now names the setting and the fix. Given in the same call
    (or grid point) as a base estimator, it still works."""
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    with pytest.raises(ValueError, match=r"base_estimator__C=0\.5.*base_estimator is None"):
        OMCSL().set_params(base_estimator__C=0.5)
    both = OMCSL().set_params(base_estimator=CostSensitivePA(), base_estimator__C=0.5)
    assert both.base_estimator.C == 0.5
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] > 1).astype(int)
    pipe = make_pipeline(StandardScaler(), OMCSL(n_learners=2, random_state=0))
    search = GridSearchCV(pipe, {"omcsl__base_estimator__C": [0.1]}, cv=2, error_score="raise")
    with pytest.raises(ValueError, match=r"Give a base estimator in the same call or grid"):
        search.fit(X, y)


@pytest.mark.parametrize("measure", ["auroc", "auprc"])
def test_count_tables_past_the_size_limit_warn_before_allocating(measure, monkeypatch):
    """Session 15: ``n_bins=10**8`` (9 learners) asked for 14 GiB of count tables without a
    word, and AUPRC reads a whole table row per sample. The warning comes first (here
    turned into an error, so nothing is allocated) and points at the caller's line; F1
    keeps no tables and stays silent; 1 GiB itself is accepted."""
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.arange(20) % 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match=r"OMCSL\(n_bins=100000000\) keeps two 9 × "
                           r"100000000 count tables \(13\.4 GiB.*use n_bins <= 7,456,540 "
                           r"\(1 GiB\), or measure='f1'"):  # fmt: skip
            OMCSL(measure=measure, n_bins=10**8).fit(X, y)
        OMCSL(measure="f1", n_bins=10**8).fit(X, y)  # no tables: silent
        OMCSL(measure=measure, n_learners=8, n_bins=2**23).partial_fit(X, y)  # exactly 1 GiB
    from skewlearn import base

    monkeypatch.setattr(base, "LARGE_STATE", 1000)  # 9 × 100 bins × 2 × 8 bytes = 14,400
    with pytest.warns(RuntimeWarning, match=r"n_bins <= 6 \(1 GiB\)") as record:
        OMCSL(measure=measure, n_bins=100).fit(X, y)
    assert [w.filename for w in record] == [__file__]  # the caller's line


def test_a_base_estimators_pos_label_must_be_omcsls_positive_class():
    """The K clones learn OMCSL's ±1 labels with their pos_label set to None, so the base
    estimator's own pos_label was dropped silently: OMCSL(base_estimator=
    CostSensitivePA(pos_label=0)) gave class 1 the costs c+ (OMCSL's pos_label=None means
    classes_[1]). A pos_label that is OMCSL's positive class is fine; another is refused."""
    X, y = _stream(n=300)
    with pytest.raises(ValueError, match=r"pos_label=0.*OMCSL\(pos_label=0"):
        OMCSL(base_estimator=CostSensitivePA(pos_label=0), random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=r"pos_label='spam' is not one of"):
        OMCSL(base_estimator=CostSensitivePA(pos_label="spam")).fit(X, y)
    same = OMCSL(pos_label=0, base_estimator=CostSensitivePA(pos_label=0), random_state=0)
    plain = OMCSL(pos_label=0, base_estimator=CostSensitivePA(), random_state=0)
    np.testing.assert_array_equal(same.test_then_train(X, y), plain.test_then_train(X, y))
    agree = OMCSL(base_estimator=CostSensitivePA(pos_label=1), random_state=0)
    np.testing.assert_array_equal(
        agree.test_then_train(X, y),
        OMCSL(base_estimator=CostSensitivePA(), random_state=0).test_then_train(X, y),
    )


def test_auprc_is_defined_from_the_first_positive_and_auroc_once_both_classes_came():
    """``measures_`` is NaN exactly while the measure is undefined: AUPRC needs a positive
    only (its tables then give 1 on positives alone, as HistogramPRAUC), AUROC both classes
    (session 23: no test told the two conditions apart)."""
    X, _ = _stream(n=6, seed=1)
    y = np.array([1, 1, 1, 1, 1, 0])
    for measure, metric in (("auprc", HistogramPRAUC), ("auroc", HistogramROCAUC)):
        clf = OMCSL(n_learners=3, measure=measure, n_bins=10, random_state=0)
        clf.partial_fit(X[:5], y[:5], classes=[0, 1])
        if measure == "auprc":
            assert metric(n_bins=10).update_many(y[:5], [0.0, 1, 2, 3, 4]).get() == 1.0
            np.testing.assert_array_equal(clf.measures_, np.ones(3))
        else:
            assert np.isnan(clf.measures_).all()
            np.testing.assert_array_equal(clf.measure_values_, np.zeros(3))
        clf.partial_fit(X[5:], y[5:])
        assert np.isfinite(clf.measures_).all()


@pytest.mark.parametrize("path", ["fast", "generic"])
def test_measures_are_nan_until_defined(path):
    """AUPRC is undefined before the first positive and AUROC before both classes: NaN in
    measures_ and bin_errors_ (Eq. (2) counts them 0, so p stays uniform), the F-measure 0."""
    X, y = _stream(n=60, seed=8, pos=0.3)
    order = np.argsort(y, kind="stable")  # the negatives first
    X, y = X[order], y[order]
    first_pos = int(np.argmax(y == 1))
    base = {"generic": CostSensitiveOGD(objective="weighted"), "fast": None}[path]
    for measure in ("f1", "auroc", "auprc"):
        clf = OMCSL(n_learners=3, measure=measure, base_estimator=base, random_state=0)
        clf.partial_fit(X[:first_pos], y[:first_pos], classes=[0, 1])
        if measure == "f1":
            np.testing.assert_array_equal(clf.measures_, 0.0)
        else:
            assert np.isnan(clf.measures_).all() and np.isnan(clf.bin_errors_).all()
        np.testing.assert_array_equal(clf.probabilities_, 1 / 3)
        clf.partial_fit(X[first_pos : first_pos + 1], y[first_pos : first_pos + 1])
        assert not np.isnan(clf.measures_).any()
