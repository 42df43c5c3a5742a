"""Time KASLS_R (reduced kernel ASLS) beside scikit-learn's SVC, in one run.

Data: ``--rows`` training rows × 20 features from ``make_classification`` (10 informative,
4 redundant, 10% positives, 1% label noise), standardised, and ``--test-rows`` held-out
rows of the same draw for the G-mean :math:`\\sqrt{TPR \\cdot TNR}`.

* skewlearn ``KernelASLS(reduced_rate=η)`` (KASLS_R, Eqs. 14–18 of seed 004), Gaussian
  kernel with ``sigma="scale"``, ``r_pos="balanced"``, ``nu=1``, the default 10 stages;
* scikit-learn ``SVC(class_weight="balanced")`` (libsvm), RBF with ``gamma="scale"`` —
  the same kernel width.

libsvm is single-threaded, so BLAS is limited to ``--threads`` (default 1) for the whole
run: both learners use one core. SVC is trained on growing prefixes (5k, 10k, 20k, ...)
while its predicted time stays within ``--svc-budget`` seconds; if it cannot reach
``--rows``, its time there is extrapolated from a power law fitted to the last two
measured sizes and printed as *extrapolated*, and its G-mean is that of the largest
model trained (a lower bound on what the full data would give at most by a little).

Run::

    python benchmarks/bench_asls.py                      # 50,000 rows, η = 0.1
    python benchmarks/bench_asls.py --eta 0.1 0.02 --svc-budget 240
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def make_data(n: int, n_test: int, d: int = 20, pos_rate: float = 0.1, seed: int = 0):
    from sklearn.datasets import make_classification

    X, y = make_classification(
        n + n_test,
        d,
        n_informative=10,
        n_redundant=4,
        weights=[1 - pos_rate],
        flip_y=0.01,
        class_sep=1.0,
        random_state=seed,
    )
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X[:n], y[:n], X[n:], y[n:]


def g_mean(y_true, y_pred) -> float:
    tpr = np.mean(y_pred[y_true == 1] == 1)
    tnr = np.mean(y_pred[y_true == 0] == 0)
    return float(np.sqrt(tpr * tnr))


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=50_000)
    ap.add_argument("--test-rows", type=int, default=20_000)
    ap.add_argument("--eta", type=float, nargs="+", default=[0.1])
    ap.add_argument("--svc-budget", type=float, default=180.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    from sklearn.svm import SVC
    from threadpoolctl import threadpool_limits

    from skewlearn import KernelASLS

    X, y, Xt, yt = make_data(args.rows, args.test_rows, seed=args.seed)
    n = len(y)
    print(
        f"data: {n} train / {len(yt)} test rows × {X.shape[1]} features, "
        f"{y.mean():.1%} positives; BLAS threads = {args.threads}"
    )
    results: dict = {}
    with threadpool_limits(args.threads):
        KernelASLS(reduced_rate=0.5, random_state=0).fit(X[:200], y[:200])  # warm-up
        for eta in args.eta:
            est = KernelASLS(reduced_rate=eta, random_state=args.seed)
            _, t_fit = timed(lambda est=est: est.fit(X, y))
            pred, t_pred = timed(lambda est=est: est.predict(Xt))
            results[f"KASLS_R eta={eta}"] = (t_fit, g_mean(yt, pred), n, False)
            print(
                f"KASLS_R η={eta}: fit {t_fit:.1f} s ({est.n_stages_} stages, "
                f"{len(est.support_)} basis rows), predict {t_pred:.1f} s, "
                f"G-mean {g_mean(yt, pred):.4f}"
            )

        sizes = [s for s in (5_000, 10_000, 20_000) if s < n] + [n]
        done: list[tuple[int, float]] = []
        svc_gm = np.nan
        for s in sizes:
            if done:
                n0, t0 = done[-1]
                p = (
                    np.log(done[-1][1] / done[-2][1]) / np.log(n0 / done[-2][0])
                    if len(done) > 1
                    else 2.0
                )
                if t0 * (s / n0) ** p > args.svc_budget:
                    print(
                        f"SVC: skipping {s} rows (predicted {t0 * (s / n0) ** p:.0f} s "
                        f"> budget {args.svc_budget:.0f} s)"
                    )
                    break
            svc = SVC(class_weight="balanced", gamma="scale")
            _, t_fit = timed(lambda svc=svc, s=s: svc.fit(X[:s], y[:s]))
            svc_gm = g_mean(yt, svc.predict(Xt))
            done.append((s, t_fit))
            print(
                f"SVC balanced on {s} rows: fit {t_fit:.1f} s, "
                f"{len(svc.support_) / s:.1%} SVs, G-mean {svc_gm:.4f}"
            )
        n_last, t_last = done[-1]
        extrapolated = n_last < n
        if extrapolated:
            p = (
                np.log(done[-1][1] / done[-2][1]) / np.log(n_last / done[-2][0])
                if len(done) > 1
                else 2.0
            )
            t_svc = t_last * (n / n_last) ** p
            print(
                f"SVC on {n} rows: {t_svc:.0f} s EXTRAPOLATED (n^{p:.2f} from "
                f"{done[-2][0] if len(done) > 1 else '-'} and {n_last} rows)"
            )
        else:
            t_svc = t_last
        results["SVC balanced"] = (t_svc, svc_gm, n_last, extrapolated)

    print()
    print(f"{'learner':<22}{'fit time (s)':>14}{'G-mean':>9}{'speed-up':>10}  note")
    for name, (t, gm, rows, extra) in results.items():
        note = f"time extrapolated; G-mean of the {rows}-row model" if extra else ""
        print(f"{name:<22}{t:>14.1f}{gm:>9.4f}{t_svc / t:>9.1f}×  {note}")
    return results


if __name__ == "__main__":
    main()
