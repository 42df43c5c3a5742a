"""Time KASLS_R (reduced kernel ASLS) beside scikit-learn's SVC, in one run.

Data: ``--rows`` training rows × 20 features from ``make_classification`` (10 informative,
4 redundant, 10% positives, 1% label noise), standardised, and ``--test-rows`` held-out
rows of the same draw for the G-mean :math:`\\sqrt{TPR \\cdot TNR}`.

* skewlearn ``KernelASLS(reduced_rate=η)`` (KASLS_R, Eqs. 14–18 of seed 004), Gaussian
  kernel with ``sigma="scale"``, ``r_pos="balanced"``, ``nu=1``, the default 10 stages;
* scikit-learn ``SVC(class_weight="balanced")`` (libsvm), RBF with ``gamma="scale"`` —
  the same kernel width.

libsvm is single-threaded, so BLAS is limited to ``--threads`` (default 1) for the whole
run: both learners use one core. Times are CPU seconds of this process
(``time.process_time``) — the machine may be shared, so wall time is printed beside them
but not compared. SVC is trained on growing prefixes (5k, 10k, 20k, ...) while its
predicted CPU time stays within ``--svc-budget`` seconds; if it cannot reach ``--rows``,
its time there is extrapolated from a power law fitted to the last two measured sizes and
printed as EXTRAPOLATED, and its G-mean is that of the largest model trained.

The cost floor of KASLS_R is forming ``G'ΛG`` (``N·(N_R+1)²`` multiply-adds, BLAS
``syrk``): the run also times one ``syrk`` block of the same width and prints the time
that product alone needs at ``N`` rows, to show how far the fit is from it.

Run::

    python benchmarks/bench_asls.py                      # 50,000 rows, η = 0.1
    python benchmarks/bench_asls.py --eta 0.1 0.05 0.02 --svc-budget 240
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
    """``(result, CPU seconds, wall seconds)`` of ``fn()``."""
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


def syrk_floor(n: int, p: int, block: int = 2048) -> float:
    """CPU seconds BLAS ``syrk`` needs for ``S'S`` with ``S`` of ``n × p``, measured on one
    ``block × p`` piece and scaled by ``n / block`` (the product is linear in rows)."""
    from scipy.linalg.blas import dsyrk

    S = np.random.default_rng(0).random((block, p))
    C = np.zeros((p, p), order="F")
    dsyrk(1.0, S[:64].T, beta=1.0, c=C, trans=0, lower=1, overwrite_c=1)  # warm-up
    _, cpu, _ = timed(lambda: dsyrk(1.0, S.T, beta=1.0, c=C, trans=0, lower=1, overwrite_c=1))
    return cpu * n / block


def power_law(done: list[tuple[int, float]], n: int) -> tuple[float, float]:
    """Time at ``n`` rows from the last two ``(rows, seconds)`` points, and the exponent.

    With one point (the budget stopped SVC after its first size) the exponent is taken
    as 2, libsvm's usual growth, the same guess that stopped it.
    """
    if len(done) == 1:
        (n1, t1), p = done[0], 2.0
    else:
        (n0, t0), (n1, t1) = done[-2], done[-1]
        p = np.log(t1 / t0) / np.log(n1 / n0)
    return t1 * (n / n1) ** p, p


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=50_000)
    ap.add_argument("--test-rows", type=int, default=20_000)
    ap.add_argument("--eta", type=float, nargs="+", default=[0.1])
    ap.add_argument("--svc-budget", type=float, default=180.0, help="CPU seconds per SVC fit")
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
        f"{y.mean():.1%} positives; BLAS threads = {args.threads}; times in CPU seconds "
        "(wall in brackets)",
        flush=True,
    )
    results: dict = {}
    with threadpool_limits(args.threads):
        KernelASLS(reduced_rate=0.5, random_state=0).fit(X[:200], y[:200])  # warm-up
        for eta in args.eta:
            est = KernelASLS(reduced_rate=eta, random_state=args.seed)
            _, cpu, wall = timed(lambda est=est: est.fit(X, y))
            pred, cpu_p, _ = timed(lambda est=est: est.predict(Xt))
            n_r = len(est.support_)
            floor = syrk_floor(n, n_r + 1)
            gm = g_mean(yt, pred)
            results[f"KASLS_R η={eta}"] = dict(cpu=cpu, wall=wall, gmean=gm, rows=n, extra=False)
            print(
                f"KASLS_R η={eta}: fit {cpu:.1f} s [{wall:.1f}] ({est.n_stages_} stages, "
                f"{n_r} basis rows; G'ΛG by syrk alone: {floor:.1f} s), predict "
                f"{cpu_p:.1f} s, G-mean {gm:.4f}",
                flush=True,
            )

        sizes = [s for s in (5_000, 10_000, 20_000) if s < n] + [n]
        done: list[tuple[int, float]] = []
        svc_gm = np.nan
        for s in sizes:
            if done:
                guess = power_law(done, s)[0]
                if guess > args.svc_budget:
                    print(
                        f"SVC: skipping {s} rows (predicted {guess:.0f} s > budget "
                        f"{args.svc_budget:.0f} s)",
                        flush=True,
                    )
                    break
            svc = SVC(class_weight="balanced", gamma="scale")
            _, cpu, wall = timed(lambda svc=svc, s=s: svc.fit(X[:s], y[:s]))
            pred, cpu_p, _ = timed(lambda svc=svc: svc.predict(Xt))
            svc_gm = g_mean(yt, pred)
            done.append((s, cpu))
            print(
                f"SVC balanced on {s} rows: fit {cpu:.1f} s [{wall:.1f}], {svc.n_iter_[0]} "
                f"SMO iterations, {len(svc.support_) / s:.1%} SVs, predict {cpu_p:.1f} s, "
                f"G-mean {svc_gm:.4f}",
                flush=True,
            )
        n_last, t_last = done[-1]
        extrapolated = n_last < n
        if extrapolated:
            t_svc, p = power_law(done, n)
            basis = (
                f"n^{p:.2f} from {done[-2][0]} and {n_last} rows"
                if len(done) > 1
                else f"n^2 assumed, from {n_last} rows alone"
            )
            print(f"SVC on {n} rows: {t_svc:.0f} s EXTRAPOLATED ({basis})")
        else:
            t_svc = t_last
        results["SVC balanced"] = dict(
            cpu=t_svc, wall=np.nan, gmean=svc_gm, rows=n_last, extra=extrapolated
        )

    print()
    print("| learner | fit CPU s | G-mean | SVC time / fit time | note |")
    print("|---|---|---|---|---|")
    for name, r in results.items():
        note = f"time extrapolated; G-mean of the {r['rows']}-row model" if r["extra"] else ""
        print(f"| {name} | {r['cpu']:.1f} | {r['gmean']:.4f} | {t_svc / r['cpu']:.1f}× | {note} |")
    return results


if __name__ == "__main__":
    main()
