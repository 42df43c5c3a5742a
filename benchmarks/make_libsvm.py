"""Write a large LIBSVM (or CSV) stream: dense Gaussian features, a noisy linear concept,
a chosen share of positives (+1), the rest -1.

Rows are generated and formatted in blocks (compiled formatter), so any length is
written in bounded memory. Values are written with ``--decimals`` decimals (default 4:
``-0.1234``), 1-based indices, labels ``+1``/``-1``.

Run::

    python benchmarks/make_libsvm.py /tmp/stream10m.svm --rows 10000000
    python benchmarks/make_libsvm.py /tmp/s.csv --rows 1000000 --csv
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _format_block(X, y, decimals, csv, out):
    """Write rows of ``X``/``y`` as text into ``out``; return the bytes used."""
    scale = 10**decimals
    p = 0
    n, d = X.shape
    for i in range(n):
        if not csv:
            out[p] = 43 if y[i] > 0 else 45  # + / -
            out[p + 1] = 49  # 1
            p += 2
        for j in range(d):
            if csv:
                if j > 0:
                    out[p] = 44
                    p += 1
            else:
                out[p] = 32
                p += 1
                k = j + 1
                nd = 1
                t = k
                while t >= 10:
                    t //= 10
                    nd += 1
                for q in range(nd - 1, -1, -1):
                    out[p + q] = 48 + k % 10
                    k //= 10
                p += nd
                out[p] = 58
                p += 1
            v = X[i, j]
            r = np.int64(np.round(abs(v) * scale))
            if v < 0 and r != 0:
                out[p] = 45
                p += 1
            ip = r // scale
            fp = r % scale
            nd = 1
            t = ip
            while t >= 10:
                t //= 10
                nd += 1
            for q in range(nd - 1, -1, -1):
                out[p + q] = 48 + ip % 10
                ip //= 10
            p += nd
            if decimals > 0:
                out[p] = 46
                p += 1
                for q in range(decimals - 1, -1, -1):
                    out[p + q] = 48 + fp % 10
                    fp //= 10
                p += decimals
        if csv:
            out[p] = 44
            out[p + 1] = 49 if y[i] > 0 else 48
            p += 2
        out[p] = 10
        p += 1
    return p


def write_stream(
    path: str,
    rows: int,
    d: int = 50,
    pos_rate: float = 0.05,
    seed: int = 0,
    decimals: int = 4,
    csv: bool = False,
    block: int = 100_000,
) -> dict:
    """Write the stream; return a summary (rows, positives, bytes, seconds)."""
    from scipy.stats import norm

    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    noise = 0.5
    # s = X w + noise * e is N(0, |w|^2 + noise^2): the (1 - pos_rate) quantile is exact
    thr = norm.ppf(1 - pos_rate) * np.sqrt(w @ w + noise**2)
    t0 = time.perf_counter()
    n_pos = 0
    out = np.empty(block * d * (decimals + 16) + block * 8, dtype=np.uint8)
    with open(path, "wb") as fh:
        if csv:
            fh.write((",".join(f"x{j + 1}" for j in range(d)) + ",label\n").encode())
        for lo in range(0, rows, block):
            m = min(block, rows - lo)
            X = rng.normal(size=(m, d))
            y = np.where(X @ w + noise * rng.normal(size=m) > thr, 1, -1)
            n_pos += int((y > 0).sum())
            used = _format_block(X, y, decimals, csv, out)
            fh.write(out[:used].tobytes())
    return {
        "path": path,
        "rows": rows,
        "features": d,
        "positives": n_pos,
        "bytes": os.path.getsize(path),
        "seconds": time.perf_counter() - t0,
    }


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path")
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--features", type=int, default=50)
    ap.add_argument("--pos-rate", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decimals", type=int, default=4)
    ap.add_argument("--csv", action="store_true", help="write CSV (header, label 1/0 last)")
    args = ap.parse_args(argv)
    info = write_stream(
        args.path, args.rows, args.features, args.pos_rate, args.seed, args.decimals, args.csv
    )
    print(
        f"{info['path']}: {info['rows']:,} rows, {info['features']} features, "
        f"{info['positives']:,} positives ({info['positives'] / info['rows']:.2%}), "
        f"{info['bytes'] / 1e9:.2f} GB in {info['seconds']:.1f} s"
    )
    return info


if __name__ == "__main__":
    main()
