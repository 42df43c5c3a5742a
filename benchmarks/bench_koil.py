"""Time KOIL on a long imbalanced stream beside a plain numpy KOIL, in one run.

Data: ``--rows`` rows × ``--dim`` features (default 1,000,000 × 50), about 5% positives
(positives sit near a random centre in a 5-D subspace: a non-linear concept), generated
chunk by chunk (``--chunk`` rows) so the stream never sits in memory at once.

* skewlearn ``KOIL(budget_pos=100, budget_neg=100, k=10, kernel="rbf", gamma=1/d)``,
  ``policy`` = ``--policy`` (default RS++), fed chunk by chunk with ``test_then_train``
  (one compiled pass per chunk; the prequential AUC of those scores is printed);
* a plain numpy implementation of the same update — the same Gram and f caches, one Python
  iteration per row with vectorised numpy inside — on the first ``--numpy-rows`` rows,
  scaled to rows/s. Its scores are checked against KOIL's on that prefix.

Memory: peak of Python/numpy allocations during the KOIL stream (``tracemalloc``; it
includes one input chunk and the 1-D arrays of scores and labels kept for the AUC), the
model's own state (bytes of its arrays, fixed by the budget),
and the process's maximum resident set size. Numba compilation is excluded (a warm-up fit
first; compiled code is cached on disk). Timing is wall-clock and CPU time of this process.

Run::

    python benchmarks/bench_koil.py                        # 1,000,000 rows, RS++
    python benchmarks/bench_koil.py --rows 200000 --policy FIFO++
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc

import numpy as np


def make_chunk(c: int, n: int, d: int, centre: np.ndarray, pos_rate: float = 0.05):
    rng = np.random.default_rng(1000 + c)
    X = rng.normal(size=(n, d))
    y = (rng.random(n) < pos_rate).astype(np.int64)
    # positives: a blob around ``centre`` in the first 5 features
    X[y == 1, :5] = centre + 0.6 * rng.normal(size=(int(y.sum()), 5))
    return X, y


class NumpyKOIL:
    """KOIL (Eq. 12 + RS++/FIFO++ with compensation) in plain numpy, rbf kernel, same slot
    layout and Gram/f caches as skewlearn's, one Python iteration per row."""

    def __init__(self, d, C, eta, n_pos, n_neg, k, gamma, policy, rng_state):
        from skewlearn._rng import rng_int, rng_uniform

        self.rng_int, self.rng_uniform = rng_int, rng_uniform
        total = n_pos + n_neg
        self.sv = np.zeros((total, d))
        self.alpha = np.zeros(total)
        self.G = np.zeros((total, total))
        self.fsv = np.zeros(total)
        self.occ = np.zeros(total, dtype=bool)
        self.start, self.cap = [0, n_pos], [n_pos, n_neg]
        self.cnt, self.seen, self.head = [0, 0], [0, 0], [0, 0]
        self.C, self.eta, self.k, self.gamma, self.policy = C, eta, k, gamma, policy
        self.state = rng_state.copy()

    def learn(self, X, y):
        scores = np.empty(len(y))
        sv, alpha, G, fsv, occ = self.sv, self.alpha, self.G, self.fsv, self.occ
        eta, C, k = self.eta, self.C, self.k
        for i in range(len(y)):
            x, yt = X[i], y[i]
            s = 0 if yt > 0 else 1
            o = 1 - s
            kx = np.zeros(len(alpha))
            kx[occ] = np.exp(-self.gamma * ((sv[occ] - x) ** 2).sum(axis=1))
            ft = alpha @ kx
            scores[i] = ft
            self.seen[s] += 1
            oidx = np.arange(self.start[o], self.start[o] + self.cnt[o])
            viol = oidx[1.0 - yt * (ft - fsv[oidx]) > 0.0]
            step = eta * C * yt
            if self.cnt[o] == 0 or (self.cnt[s] == 0 and len(viol) == 0):
                a, sel = step, viol[:0]
            else:
                sel = viol[np.lexsort((viol, -kx[viol]))[:k]] if len(viol) > k else viol
                a = step * len(sel)
            alpha *= 1.0 - eta
            fsv *= 1.0 - eta
            alpha[sel] -= step
            fsv -= step * G[sel].sum(axis=0)
            if a == 0.0:
                continue
            lo, cap = self.start[s], self.cap[s]
            replaced = False
            if self.cnt[s] < cap:
                slot = lo + self.cnt[s]
                self.cnt[s] += 1
            elif self.policy == "FIFO++":
                slot = lo + self.head[s]
                self.head[s] = (self.head[s] + 1) % cap
                replaced = True
            elif self.rng_uniform(self.state) < cap / self.seen[s]:
                slot = lo + self.rng_int(self.state, cap)
                replaced = True
            else:  # RS++ drops x_t: its weight goes to the most similar SV
                c = lo + int(np.argmax(kx[lo : lo + cap]))
                alpha[c] += a
                fsv += a * G[c]
                continue
            if replaced:
                removed = alpha[slot]
                sims = G[slot, lo : lo + cap].copy()
                sims[slot - lo] = kx[slot]
                c = lo + int(np.argmax(sims))
                fsv -= removed * G[slot]
                alpha[slot] = 0.0
            fx = alpha @ kx
            sv[slot], alpha[slot], occ[slot] = x, a, True
            row = np.where(occ, kx, 0.0)
            G[slot, :] = row
            G[:, slot] = row
            G[slot, slot] = 1.0
            fsv += a * row
            fsv[slot] = fx + a
            if replaced:
                alpha[c] += removed
                fsv += removed * G[c]
        return scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--dim", type=int, default=50)
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--numpy-rows", type=int, default=20_000)
    ap.add_argument("--policy", default="RS++", choices=["RS++", "FIFO++"])
    args = ap.parse_args()

    from sklearn.metrics import roc_auc_score

    from skewlearn import KOIL

    d = args.dim
    centre = np.random.default_rng(7).normal(size=5)
    params = dict(
        budget_pos=100, budget_neg=100, k=10, kernel="rbf", gamma=1.0 / d, eta=0.01, C=1.0
    )
    params["policy"] = args.policy
    # warm-up: compile (or load from the on-disk cache) outside the timings
    Xw, yw = make_chunk(999, 2000, d, centre)
    KOIL(**params, random_state=0).fit(Xw, yw)

    n_chunks = -(-args.rows // args.chunk)
    clf = KOIL(**params, random_state=0)
    wall = cpu = 0.0
    all_scores, all_y = [], []
    tracemalloc.start()
    tracemalloc.reset_peak()
    for c in range(n_chunks):
        n = min(args.chunk, args.rows - c * args.chunk)
        X, y = make_chunk(c, n, d, centre)
        t0, p0 = time.perf_counter(), time.process_time()
        s = clf.test_then_train(X, y, classes=[0, 1])
        wall += time.perf_counter() - t0
        cpu += time.process_time() - p0
        all_scores.append(s)
        all_y.append(y)
        del X
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    scores, ys = np.concatenate(all_scores), np.concatenate(all_y)
    state = sum(v.nbytes for k, v in vars(clf).items() if k.endswith("_") and hasattr(v, "nbytes"))
    print(f"KOIL {args.policy}: {args.rows:,} rows x {d} features, {ys.mean():.1%} positives")
    print(
        f"  skewlearn KOIL   {args.rows / wall:>12,.0f} rows/s wall   "
        f"{args.rows / cpu:>12,.0f} rows/s CPU   ({wall:.2f} s)"
    )
    print(f"  prequential AUC  {roc_auc_score(ys, scores):.4f}")
    print(f"  SVs stored       {clf.n_support_.tolist()}  (stored {clf.counts_[3]:,} times)")
    print(
        f"  memory: model state {state / 2**20:.2f} MiB, traced peak during stream "
        f"{peak / 2**20:.1f} MiB (incl. one {args.chunk:,}-row input chunk of "
        f"{args.chunk * d * 8 / 2**20:.1f} MiB), max RSS "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:.0f} MiB"
    )

    # plain numpy on a prefix of the same stream
    m = min(args.numpy_rows, args.chunk, args.rows)
    X0, y0 = make_chunk(0, m, d, centre)
    ypm = np.where(y0 == 1, 1.0, -1.0)
    ref = KOIL(**params, random_state=0)
    npk = NumpyKOIL(d, 1.0, 0.01, 100, 100, 10, 1.0 / d, args.policy, ref._new_rng())
    t0, p0 = time.perf_counter(), time.process_time()
    s_np = npk.learn(X0, ypm)
    t_np, c_np = time.perf_counter() - t0, time.process_time() - p0
    s_sk = ref.test_then_train(X0, y0, classes=[0, 1])
    agree = np.allclose(s_np, s_sk, rtol=1e-8, atol=1e-10)
    print(
        f"  numpy KOIL       {m / t_np:>12,.0f} rows/s wall   {m / c_np:>12,.0f} rows/s CPU"
        f"   (first {m:,} rows; "
        f"scores {'match' if agree else 'DIFFER from'} skewlearn's, "
        f"max |diff| {np.max(np.abs(s_np - s_sk)):.1e})"
    )
    print(
        f"  ratio skewlearn / numpy: {(args.rows / wall) / (m / t_np):,.0f}x wall, "
        f"{(args.rows / cpu) / (m / c_np):,.0f}x CPU"
    )


if __name__ == "__main__":
    main()
