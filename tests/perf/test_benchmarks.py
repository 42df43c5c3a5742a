"""The bookkeeping of the benchmark scripts (no timing is asserted here)."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    """benchmarks/<name>.py as a module (benchmarks/ on sys.path for its own imports;
    sys.path as it was afterwards, though the scripts add their folder themselves)."""
    saved = list(sys.path)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location(
            f"_bench_{name}", ROOT / f"benchmarks/{name}.py"
        )
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path[:] = saved
    return mod


def test_asls_extrapolates_svc_from_a_single_size():
    # the SVC budget can stop after the first size: one point, n^2 assumed (was IndexError)
    asls = _load("bench_asls")
    t, p = asls.power_law([(5_000, 2.0)], 50_000)
    assert p == 2.0
    assert t == pytest.approx(200.0)
    t, p = asls.power_law([(5_000, 2.0), (10_000, 6.0)], 20_000)
    assert p == pytest.approx(1.5849625, rel=1e-6)
    assert t == pytest.approx(6.0 * 2**p)


def _boom(argv):
    raise RuntimeError(f"no data for {argv}")


def _exit(argv):
    raise SystemExit("bench_stream needs GNU time: apt-get install time")


def test_run_all_keeps_going_when_a_suite_fails():
    run_all = _load("run_all")
    assert run_all.run_suite(lambda argv: {"ok": argv}, ["--rows", "5"]) == {"ok": ["--rows", "5"]}
    assert run_all.run_suite(_boom, ["x"]) == {"error": "RuntimeError: no data for ['x']"}
    assert "GNU time" in run_all.run_suite(_exit, [])["error"]


def test_run_all_report_of_an_incomplete_run_names_the_failures():
    run_all = _load("run_all")
    err = {"error": "SystemExit: bench_stream needs GNU time"}
    results = {
        "learners": {},
        "peers": {},
        "target": 0.05,
        "commit": "0123456789ab",
        "blas_threads": 1,
        "metrics": {"skewlearn ROCAUC (exact, one update per row)": 1e6},
        "small": {"error": "RuntimeError: boom"},
        "parse": {"error": "OSError: disk full"},
        "sparse": {"error": "MemoryError: d = 10^6"},
        "stream": err,
        "startup": {"error": "RuntimeError: boom"},
    }
    doc = run_all.report(
        results, {}, [], "python benchmarks/run_all.py", 60.0, (1, 1, 1), (2, 2, 2)
    )
    assert "commit 0123456789ab" in doc
    assert "BLAS (NumPy's, SciPy's, scikit-learn's) ran with 1 thread in this process" in doc
    assert "**Incomplete run**" in doc and "`stream` failed (SystemExit" in doc
    assert "about 0.05 CPU s" in doc  # the --target actually used, not the default 0.5
    assert "## Parsing" not in doc and "## Streaming a file from disk" not in doc
    assert "`sparse` failed (MemoryError" in doc and "## Wide sparse rows" not in doc
    assert "### Streaming metrics" in doc
    # a finished sparse suite: SGDClassifier's time over the learner's, > 1 when faster
    results["sparse"] = {
        "OGD_L2 d=1000000": {"fit": 0.5, "row": 20.0, "peak": 8.7, "fit_ratio": 0.4,
                             "row_ratio": 0.02},
    }  # fmt: skip
    doc = run_all.report(
        results, {}, [], "python benchmarks/run_all.py", 60.0, (1, 1, 1), (2, 2, 2)
    )
    assert "## Wide sparse rows" in doc
    assert "| OGD_L2 | 1,000,000 | 0.50 | 2.5 | 20.0 | 50 |" in doc


def test_run_all_records_the_commit():
    commit = _load("run_all").git_commit()
    assert commit.startswith("unknown") or all(c in "0123456789abcdef" for c in commit[:12])


def test_omcsl_times_only_the_metric_updates(monkeypatch):
    # River's one-at-a-time AUROC was timed with a per-row np.exp (sigma of the score) and
    # the list conversions inside the clock, skewlearn's without: River's rate was ~2.5x low
    pytest.importorskip("river")
    import numpy as np

    omcsl = _load("bench_omcsl")
    clock = {"on": False}

    class NumpyOutsideTheClock:
        def __getattr__(self, name):
            if clock["on"]:
                raise AssertionError(f"np.{name} called inside a timed region")
            return getattr(np, name)

    def timed(fn):
        clock["on"] = True
        try:
            return fn(), 1.0, 1.0
        finally:
            clock["on"] = False

    monkeypatch.setattr(omcsl, "np", NumpyOutsideTheClock())
    monkeypatch.setattr(omcsl, "_timed", timed)
    res, values = omcsl.bench_auc(6_000, 3_000)
    assert values["skewlearn ROCAUC on the first 3,000"] == pytest.approx(
        values["sklearn roc_auc_score on the first 3,000"], abs=1e-12
    )
    assert res["River metrics.ROCAUC.update (approximate), one at a time"]["rows"] == 3_000


def test_linear_gives_river_the_same_repeats(monkeypatch):
    pytest.importorskip("river")
    linear = _load("bench_linear")
    repeats = []

    def best_time(fn, repeat):
        repeats.append(repeat)
        return 1.0

    monkeypatch.setattr(linear, "best_time", best_time)
    rates = linear.main(["--rows", "300", "--river-rows", "50", "--repeat", "3"])
    assert len(repeats) == len(rates) and set(repeats) == {3}


class _Stop(Exception):
    pass


def test_run_all_measures_with_one_blas_thread(monkeypatch, tmp_path):
    # with two OpenBLAS threads on a shared machine MultiNystroemMKL's fit took ~2.7x the
    # CPU seconds of one thread; run_all now limits BLAS and restores it afterwards
    threadpoolctl = pytest.importorskip("threadpoolctl")
    run_all = _load("run_all")
    before = [p["num_threads"] for p in threadpoolctl.threadpool_info()]
    seen = []

    def first_step():
        seen.extend(p["num_threads"] for p in threadpoolctl.threadpool_info())
        raise _Stop

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # main imports bench_parse & co.
    monkeypatch.setattr(run_all, "skewlearn_estimators", first_step)
    with pytest.raises(_Stop):
        run_all.main(["--quick", "--out", str(tmp_path / "b.md")])
    assert seen and set(seen) == {1}
    assert [p["num_threads"] for p in threadpoolctl.threadpool_info()] == before


def test_nystrom_measures_with_one_blas_thread(monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    nystrom = _load("bench_nystrom")
    before = [p["num_threads"] for p in threadpoolctl.threadpool_info()]
    seen = []

    def first_step(*args, **kwargs):
        seen.extend(p["num_threads"] for p in threadpoolctl.threadpool_info())
        raise _Stop

    monkeypatch.setattr(nystrom, "make_data", first_step)
    with pytest.raises(_Stop):
        nystrom.main(["--rows", "1000"])
    assert seen and set(seen) == {1}
    assert [p["num_threads"] for p in threadpoolctl.threadpool_info()] == before


def test_bench_sparse_rows_and_ratios():
    """bench_sparse's stream has the asked width and non-zeros a row, and a tiny run
    reports each learner beside SGDClassifier (no timing asserted)."""
    bench = _load("bench_sparse")
    X, y = bench.make_stream(40, 100_000, 7.0)
    assert X.shape == (40, 100_000) and X.has_canonical_format
    assert np.all(np.diff(X.indptr) <= 7) and X.nnz > 40 * 6
    assert set(np.unique(y)) == {0, 1}
    out = bench.main(
        ["--rows", "60", "--dims", "1000", "--one-row", "3", "--repeat", "1",
         "--learners", "Perceptron", "KOIL", "SGDClassifier", "--max-state-mb", "1"]
    )  # fmt: skip
    assert set(out) == {"Perceptron d=1000", "SGDClassifier d=1000"}  # KOIL: 1.6 MB state
    assert out["SGDClassifier d=1000"]["fit_ratio"] == 1.0


def test_one_row_section_and_its_report():
    """bench_small_batches' one-row section (session 26) times every learner, input and
    call it names, River's API beside River and the metrics; run_all turns it into
    tables with SGDClassifier's and River's ratios (no timing asserted)."""
    small = _load("bench_small_batches")
    out = small.one_row_calls(3, 1)
    names = [name for name, _ in small.ONE_ROW_LEARNERS] + ["sklearn SGDClassifier"]
    kinds = [kind for kind, _, _ in small.ONE_ROW_INPUTS]
    assert set(out["learners"]) == {(n, k) for n in names for k in kinds}
    assert set(out["learners"][("OGD", kinds[0])]) >= {"partial_fit", "predict_proba"}
    assert "test_then_train" in out["learners"][("OMCSL", kinds[2])]
    assert all(v > 0 for res in out["learners"].values() for v in res.values())
    doc = "\n".join(_load("run_all").one_row_sections(out))
    assert "### One-row calls" in doc and "| KOIL | CSR d=10^4, 20 nnz |" in doc
    if out.get("river"):  # (river is optional)
        assert set(out["river_peers"].values()) <= set(out["river"])
        assert "| RiverClassifier(PassiveAggressive) |" in doc and "×) |" in doc
        assert set(out["metrics"]) == {"ROCAUC", "F1"} and "| ROCAUC |" in doc
