"""Time learners on sparse (CSR) rows of growing width at a fixed number of non-zeros.

Data: ``--rows`` CSR rows (default 20,000) with ``--nnz`` non-zeros each on average
(default 15; uniform values at uniform columns), at each width of ``--dims`` (default 300
and 3,000); labels from a noisy linear concept (about 30 % positives). Every learner
runs with its defaults, ``random_state=0``:

* the budgeted kernel learners (rbf kernel): KOIL, Forgetron, NORMA, KernelPerceptron and
  RBP, and at widths below 1,000 also Projectron and ProjectronPP (their projections,
  O(budget²) a row, dominate there anyway);
* OFS, whose update reads only its at most ``n_selected`` non-zero weights and the row
  (docs/decisions.md, session 17), beside its peer, scikit-learn's ``SGDClassifier``
  (hinge, one epoch, no shuffling), whose sparse update is O(nnz) as well.

``--learners`` picks some by name. Each rate is the best of two ``fit`` calls after a
warm-up, in rows per CPU second of this process (``time.process_time``); for OFS the line
also gives its ratio to SGDClassifier at the same width (> 1: OFS is faster).

The point is how the cost grows with the width: a kernel value on a CSR row reads only the
row's non-zeros (the support vectors' squared norms are kept per pass, docs/decisions.md,
session 16), so a wider sparse stream should cost about as much as a narrow one.
``--save`` writes every learner's scores on the first 2,000 rows to an ``.npz`` file, for
comparing two versions of the code bit for bit.

Run::

    python benchmarks/bench_sparse_width.py
    python benchmarks/bench_sparse_width.py --dims 300 --save /tmp/scores.npz
    python benchmarks/bench_sparse_width.py --learners OFS SGDClassifier --dims 300 30000 300000
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import scipy.sparse as sp


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--nnz", type=float, default=15.0)
    ap.add_argument("--dims", type=int, nargs="+", default=[300, 3000])
    ap.add_argument("--save", default=None, help="an .npz file for the scores")
    ap.add_argument("--learners", nargs="+", default=None, help="only these (by name)")
    args = ap.parse_args(argv)

    from sklearn.linear_model import SGDClassifier

    from skewlearn import (
        KOIL,
        NORMA,
        OFS,
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
        # ~nnz uniform(0, 1) values a row at uniform columns (repeats summed), built
        # without sp.random's n*d index draw, so widths of millions fit in memory
        total = round(n * min(float(d), args.nnz))
        gen = np.random.default_rng(1)
        X = sp.csr_matrix(
            (gen.random(total), (gen.integers(0, n, total), gen.integers(0, d, total))),
            shape=(n, d),
        )
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
        models["OFS"] = OFS()
        models["SGDClassifier"] = SGDClassifier(max_iter=1, tol=None, shuffle=False)
        if args.learners is not None:
            models = {k: v for k, v in models.items() if k in args.learners}
        for name, model in models.items():
            with warnings.catch_warnings():  # SGDClassifier: one epoch does not converge
                warnings.simplefilter("ignore")
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
        if "OFS" in models and "SGDClassifier" in models:
            ratio = results[f"OFS d={d}"] / results[f"SGDClassifier d={d}"]
            print(f"{'OFS ÷ SGDClassifier':<24} {ratio:>12.2f} ×")
    if args.save:
        np.savez(args.save, **scores)
    return results


if __name__ == "__main__":
    main()
