"""Time MultiNystroemMKL beside scikit-learn's SVC and Nystroem + LinearSVC, in one run.

Data: ``--rows`` training rows (default 100,000) and ``--test-rows`` held-out rows from
the same synthetic distribution: 15 standard-normal features, a nonlinear score
``x0² + 2 sin(2 x1) − x2 x3 + 0.5 |x4| + N(0, 1)`` of which the top 2% are positives
(features 5–14 are noise; the N(0, 1) term makes the classes overlap). Every learner uses
Gaussian kernels, the same ``--C`` (default 1; the paper uses 100) and balanced class
weights; AUC is measured on the held-out rows.

* **MultiNystroemMKL** (skewlearn): 3 Gaussian kernels (``gamma`` = scale × 1/4, 1, 4),
  ``L`` class-stratified landmarks each, μ learned by reduced-gradient MKL, for each ``L``
  of ``--landmarks`` (default 10 25 50 150: 30 to 450 landmarks in total; the issue does
  not fix the number).
  ``--also-descent-svm-tol T`` adds, for each ``L``, a MultiNystroemMKL row with
  ``descent_svm_tol=T`` (the tolerance of its loose descent solves; the default is 0.1).
* **Nystroem + LinearSVC** (scikit-learn): uniform landmarks, as many in total
  (3 × ``L``), ``gamma="scale"``, hinge loss, liblinear, for each ``L``.
* **SVC** (scikit-learn, libsvm, RBF ``gamma="scale"``): trained on growing stratified
  subsets (doubling from 5,000 rows) while the next one is predicted to finish within
  ``--svc-budget`` CPU seconds (CPU time × 4 per doubling; CPU, not wall, so that a busy
  machine does not change where it stops). Its time on all rows is
  **extrapolated** as ``t_largest · (n / n_largest)²`` (libsvm scales about
  quadratically) and printed as such; its AUC is the largest subset's.

Times are training times (``fit``) in wall-clock and CPU seconds (``time.process_time``:
this process, BLAS threads included; libsvm is single-threaded), numba compilation excluded
(a warm-up fit on a small sample runs first). On a shared machine the CPU times are the
comparable ones. BLAS runs with ``--threads`` threads (default 1, as libsvm; ``0`` leaves
the configured count), printed with the thread pools. The speed-up over SVC and the AUC
difference are printed for every landmark setting, and ``--json PATH`` writes every number.

Run::

    python benchmarks/bench_nystrom.py                 # 100,000 rows, SVC budget 300 CPU s
    python benchmarks/bench_nystrom.py --landmarks 50 150
    python benchmarks/bench_nystrom.py --C 100         # the paper's cost
    python benchmarks/bench_nystrom.py --rows 20000 --svc-budget 30
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from sklearn.metrics import roc_auc_score

NOISE = 1.0


def make_data(n: int, d: int = 15, pos_rate: float = 0.02, seed: int = 0, threshold=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = (
        X[:, 0] ** 2
        + 2.0 * np.sin(2.0 * X[:, 1])
        - X[:, 2] * X[:, 3]
        + 0.5 * np.abs(X[:, 4])
        + NOISE * rng.normal(size=n)
    )
    if threshold is None:
        threshold = np.quantile(s, 1.0 - pos_rate)
    return X, (s > threshold).astype(np.int64), threshold


def timed(fn):
    """``(result, wall seconds, CPU seconds of this process incl. BLAS threads)``."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def stratified_subset(y, n, seed=0):
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    k = round(n * len(pos) / len(y))
    return np.sort(np.r_[rng.choice(pos, k, replace=False), rng.choice(neg, n - k, replace=False)])


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--test-rows", type=int, default=20_000)
    ap.add_argument("--landmarks", type=int, nargs="+", default=[10, 25, 50, 150],
                    help="landmarks per kernel of MultiNystroemMKL (3 × in total)")  # fmt: skip
    ap.add_argument("--also-descent-svm-tol", type=float, default=None,
                    help="also run MultiNystroemMKL with this descent_svm_tol")  # fmt: skip
    ap.add_argument("--svc-budget", type=float, default=300.0)
    ap.add_argument("--svc-start", type=int, default=5_000)
    ap.add_argument("--C", type=float, default=1.0, help="SVM cost of every learner")
    ap.add_argument("--threads", type=int, default=1,
                    help="BLAS threads (default 1, as libsvm; 0: leave as configured)")  # fmt: skip
    ap.add_argument("--json", help="write every number to this JSON file")
    ap.add_argument("--png", help="plot test AUC against fit CPU seconds to this PNG file")
    ap.add_argument("--from-json", help="only plot (--png) the results of an earlier --json")
    args = ap.parse_args(argv)
    if args.from_json:
        with open(args.from_json, encoding="utf-8") as f:
            results = json.load(f)
        if args.png:
            plot(results, args.png)
        return results
    from threadpoolctl import threadpool_limits

    # one BLAS thread unless asked (decisions: "Run with one BLAS thread"): libsvm and
    # liblinear use one core, and two OpenBLAS threads on a shared 2-core machine count
    # their waiting as CPU time (MultiNystroemMKL's CPU seconds 3-7x higher at 20,000 rows)
    limiter = threadpool_limits(limits=args.threads) if args.threads > 0 else None
    try:
        return _run(args)
    finally:
        if limiter is not None:
            limiter.restore_original_limits()


def _run(args) -> dict:
    """The benchmark proper, once :func:`main` has parsed ``args`` and limited BLAS."""
    from sklearn.kernel_approximation import Nystroem
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC, LinearSVC
    from threadpoolctl import threadpool_info

    from skewlearn import MultiNystroemMKL

    X, y, thr = make_data(args.rows, seed=0)
    Xt, yt, _ = make_data(args.test_rows, seed=1, threshold=thr)
    n = len(y)
    print(f"train {n} rows × {X.shape[1]} features, {y.mean():.2%} positives; test {len(yt)} rows")
    threads = sorted({(p["internal_api"], p["num_threads"]) for p in threadpool_info()})
    print(f"thread pools: {threads}")
    results: dict = {"args": vars(args), "threads": threads, "runs": {}}

    def report(name, seconds, cpu, auc, note="", **extra):
        results["runs"][name] = {"wall_s": seconds, "cpu_s": cpu, "auc": auc, **extra}
        print(f"{name:<52s} {seconds:8.1f} s wall {cpu:8.1f} s CPU   AUC {auc:.4f}  {note}",
              flush=True)  # fmt: skip

    def mkl(L, **kw):
        return MultiNystroemMKL(n_landmarks=L, C=args.C, random_state=0, **kw)

    def nys(L):
        return make_pipeline(
            Nystroem(gamma=1.0 / (X.shape[1] * X.var()), n_components=3 * L, random_state=0),
            LinearSVC(loss="hinge", dual=True, C=args.C, class_weight="balanced", max_iter=10_000,
                      random_state=0),  # liblinear draws its row order: seeded, so the AUC repeats
        )  # fmt: skip

    mkl(args.landmarks[0]).fit(X[:2000], y[:2000])  # compile / load the cached numba kernels

    def fit_mkl(label: str, L: int, tol) -> None:
        """Fit MultiNystroemMKL 3 × L (descent_svm_tol ``tol``; None: the default), report it."""
        kw = {} if tol is None else {"descent_svm_tol": tol}
        clf, t, c = timed(lambda: mkl(L, **kw).fit(X, y))
        report(
            label,
            t,
            c,
            roc_auc_score(yt, clf.decision_function(Xt)),
            f"mu={np.round(clf.mu_, 3).tolist()} iters={clf.n_iter_} solves={clf.n_svm_solves_}",
            mu=clf.mu_.tolist(),
            n_iter=clf.n_iter_,
            n_svm_solves=clf.n_svm_solves_,
            descent_svm_tol=clf.descent_svm_tol,
            rel_gap=clf.duality_gap_ / clf.objective_history_[-1],
        )

    for L in args.landmarks:
        # ---- skewlearn MultiNystroemMKL
        fit_mkl(f"skewlearn MultiNystroemMKL 3 × {L}", L, None)
        if args.also_descent_svm_tol is not None:
            T = args.also_descent_svm_tol
            fit_mkl(f"skewlearn MKL descent_svm_tol={T} 3 × {L}", L, T)
        # ---- scikit-learn Nystroem + LinearSVC (uniform landmarks, same total)
        pipe, t, c = timed(lambda L=L: nys(L).fit(X, y))
        auc = roc_auc_score(yt, pipe.decision_function(Xt))
        report(f"scikit-learn Nystroem {3 * L} + LinearSVC", t, c, auc)

    # ---- scikit-learn SVC on growing subsets
    m, last = min(args.svc_start, n), None  # --rows below --svc-start: SVC on all rows
    while m <= n:
        idx = stratified_subset(y, m)
        svc, t, c = timed(
            lambda idx=idx: SVC(kernel="rbf", gamma="scale", C=args.C, class_weight="balanced").fit(
                X[idx], y[idx]
            )
        )
        auc = roc_auc_score(yt, svc.decision_function(Xt))
        report(f"scikit-learn SVC on {m} rows (measured)", t, c, auc, f"{len(svc.support_)} SVs",
               n_support=len(svc.support_))  # fmt: skip
        last = (m, t, c, auc)
        if m == n or 4.0 * c > args.svc_budget:
            break
        m = min(2 * m, n)
    m, t, c, auc = last
    t_full, c_full = t * (n / m) ** 2, c * (n / m) ** 2
    label = "measured" if m == n else f"EXTRAPOLATED from {m} rows as ~n²"
    if m < n:
        report(f"scikit-learn SVC on {n} rows ({label})", t_full, c_full, auc,
               "(AUC of the subset model)")  # fmt: skip
    results["svc"] = {"rows": m, "label": label, "wall_s": t_full, "cpu_s": c_full, "auc": auc}

    print()
    print(f"SVC on {n} rows ({label}): {t_full:.1f} s wall, {c_full:.1f} s CPU, AUC {auc:.4f}")
    print(f"{'learner':<44s} {'CPU×':>7s} {'wall×':>7s} {'ΔAUC':>8s}  within 0.01")
    summary = {}
    for name, r in results["runs"].items():
        if "SVC on" in name:
            continue
        row = {"cpu_speedup": c_full / r["cpu_s"], "wall_speedup": t_full / r["wall_s"],
               "auc_diff": r["auc"] - auc}  # fmt: skip
        row["within_0.01"] = row["auc_diff"] >= -0.01  # at or above SVC − 0.01
        summary[name] = row
        print(f"{name:<44s} {row['cpu_speedup']:7.1f} {row['wall_speedup']:7.1f} "
              f"{row['auc_diff']:+8.4f}  {'yes' if row['within_0.01'] else 'no'}")  # fmt: skip
    results["against_svc"] = summary
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
        print(f"wrote {args.json}")
    if args.png:
        plot(results, args.png)
    return results


def plot(results: dict, path: str) -> None:
    """Test AUC against fit CPU seconds (log scale): one point per landmark setting of each
    approximate learner, SVC's subsets joined by a line, its full-size point marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = results["runs"]
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    for prefix, style, label in (
        ("skewlearn MultiNystroemMKL", "s-", "MultiNystroemMKL (3 × L landmarks)"),
        ("scikit-learn Nystroem", "o--", "Nystroem + LinearSVC (3L landmarks)"),
        ("scikit-learn SVC on", "^:", "SVC on stratified subsets"),
        (
            "skewlearn MKL descent",
            "d-.",
            f"MultiNystroemMKL, descent_svm_tol = {results['args'].get('also_descent_svm_tol')}",
        ),
    ):
        pts = [(r["cpu_s"], r["auc"], name) for name, r in runs.items() if name.startswith(prefix)]
        if prefix.endswith("SVC on"):
            pts = [p for p in pts if "EXTRAPOLATED" not in p[2]]
        if not pts:
            continue
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, ms=4, label=label)
        for x, a, name in pts:
            words = name.split()
            if "MultiNystroemMKL" in name or "MKL descent" in name:
                tag = f"3×{words[-1]}"
            elif "Nystroem" in name:
                tag = words[2]
            else:
                tag = f"{int(words[3]) // 1000}k"
            ax.annotate(tag, (x, a), fontsize=6, xytext=(3, -8), textcoords="offset points")
    svc = results["svc"]
    ax.axhline(svc["auc"] - 0.01, color="grey", lw=0.8, ls="--")
    ax.axvline(svc["cpu_s"] / 20, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    # labels placed in axes coordinates along one axis, so they never widen the data limits
    ax.text(svc["cpu_s"] / 20, 0.01, " SVC / 20", fontsize=6, va="bottom",
            transform=ax.get_xaxis_transform())  # fmt: skip
    ax.text(0.01, svc["auc"] - 0.01, " SVC AUC − 0.01", fontsize=6, va="bottom",
            transform=ax.get_yaxis_transform())  # fmt: skip
    ax.set_xlabel("fit CPU seconds (log)", fontsize=8)
    ax.set_ylabel("test AUC", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="lower right")
    n = results["args"]["rows"]
    ax.set_title(f"{n:,} rows, 2 % positives: SVC {svc['label']} at {n:,} rows", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
