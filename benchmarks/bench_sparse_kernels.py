"""Time the budgeted kernel learners on sparse (CSR) rows of growing width.

Data: ``--rows`` CSR rows (default 20,000) with ``--nnz`` non-zeros each on average
(default 15), at each width of ``--dims`` (default 300 and 3,000); labels from a noisy
linear concept (about 20 % positives). Every learner runs with its defaults (rbf kernel),
``random_state=0``: KOIL, Forgetron, NORMA, KernelPerceptron and RBP, and at widths below
1,000 also Projectron and ProjectronPP (their projections, O(budget²) a row, dominate
there anyway). Each rate is the best of two ``fit`` calls after a warm-up, in rows per CPU
second of this process (``time.process_time``).

The point is how the cost grows with the width at a fixed number of non-zeros: a kernel
value on a CSR row reads only the row's non-zeros (the support vectors' squared norms are
kept per pass, docs/decisions.md, session 16), so a wider sparse stream should cost about
as much as a narrow one. ``--save`` writes every learner's scores on the first 2,000 rows to
an ``.npz`` file, for comparing two versions of the code bit for bit.

Run::

    python benchmarks/bench_sparse_kernels.py
    python benchmarks/bench_sparse_kernels.py --dims 300 --save /tmp/scores.npz
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sp


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--nnz", type=float, default=15.0)
    ap.add_argument("--dims", type=int, nargs="+", default=[300, 3000])
    ap.add_argument("--save", default=None, help="an .npz file for the scores")
    args = ap.parse_args(argv)

    from skewlearn import (
        KOIL,
        NORMA,
        RBP,
        Forgetron,
        KernelPerceptron,
        Projectron,
        ProjectronPP,
    )

    results: dict[str, float] = {}
    scores: dict[str, np.ndarray] = {}
    n = args.rows
    for d in args.dims:
        rng = np.random.default_rng(0)
        X = sp.random(n, d, density=min(1.0, args.nnz / d), random_state=1, format="csr")
        w = rng.normal(size=d)
        y = np.where(X @ w + 0.3 * rng.normal(size=n) > 1.0, 1, 0)
        models = {
            "KOIL": KOIL(random_state=0),
            "Forgetron": Forgetron(),
            "NORMA": NORMA(),
            "KernelPerceptron": KernelPerceptron(),
            "RBP": RBP(random_state=0),
        }
        if d < 1000:
            models.update(Projectron=Projectron(), ProjectronPP=ProjectronPP())
        for name, model in models.items():
            model.fit(X[:200], y[:200])  # compile / load the cached code
            best = np.inf
            for _ in range(2):
                c0 = time.process_time()
                model.fit(X, y)
                best = min(best, time.process_time() - c0)
            key = f"{name} d={d}"
            results[key] = n / best
            scores[key] = model.decision_function(X[:2000])
            print(f"{key:<24} {n / best:>12,.0f} rows/CPU-s")
    if args.save:
        np.savez(args.save, **scores)
    return results


if __name__ == "__main__":
    main()
