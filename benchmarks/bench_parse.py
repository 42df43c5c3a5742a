"""Parse LIBSVM and CSV text: skewlearn's chunked and whole-file readers (compiled
parsers) beside scikit-learn's ``load_svmlight_file`` and pandas' C CSV reader.

Data: ``--rows`` rows × 50 dense features written by ``make_libsvm.py`` (4 decimals,
about 520 bytes a LIBSVM row), read from the page cache. Every reader is timed on the
same file; the compiled parsers run once first (their code is cached on disk). Rates are
rows per CPU second of this process (``time.process_time``) beside wall-clock rows/s:
the machine may be shared.

Run::

    python benchmarks/bench_parse.py                 # 1,000,000 rows
    python benchmarks/bench_parse.py --rows 200000
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))

from make_libsvm import write_stream


def timed(fn, repeat: int = 1):
    best = None
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        if best is None or cpu < best[0]:
            best = (cpu, wall)
    return best


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--careful-rows", type=int, default=100_000, help="warm-up files' rows")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=tempfile.gettempdir())
    args = ap.parse_args(argv)

    import numpy as np
    import pandas as pd
    from sklearn.datasets import load_svmlight_file

    from skewlearn.datasets import iter_chunks, read_csv, read_libsvm

    n, m = args.rows, min(args.careful_rows, args.rows)
    svm = os.path.join(args.dir, f"bench_parse_{n}.svm")
    csv = os.path.join(args.dir, f"bench_parse_{n}.csv")
    svm_small = os.path.join(args.dir, f"bench_parse_{m}.svm")
    csv_small = os.path.join(args.dir, f"bench_parse_{m}.csv")
    for path, rows, as_csv in ((svm, n, False), (csv, n, True), (svm_small, m, False),
                               (csv_small, m, True)):  # fmt: skip
        if not os.path.exists(path):
            write_stream(path, rows, csv=as_csv)

    def drain(stream):
        k = 0
        for _, y in stream:
            k += len(y)
        return k

    # compile / load the cached parsers once (the counting pass has its own)
    read_libsvm(svm_small)
    read_csv(csv_small)
    drain(iter_chunks(svm_small, 1000, positive_class=1, n_features=50))
    drain(iter_chunks(svm_small, 1000))
    drain(iter_chunks(csv_small, 1000, positive_class=1))

    results: dict[str, dict] = {}

    def record(name, rows, cpu_wall, path):
        cpu, wall = cpu_wall
        results[name] = {
            "rows": rows,
            "cpu_s": cpu,
            "wall_s": wall,
            "rows_per_cpu_s": rows / cpu,
            "rows_per_s": rows / wall,
            "bytes_per_row": os.path.getsize(path) / rows,
        }

    r = args.repeat
    record("skewlearn iter_chunks LIBSVM (compiled)", n,
           timed(lambda: drain(iter_chunks(svm, 100_000, positive_class=1, n_features=50)), r),
           svm)  # fmt: skip
    record("skewlearn iter_chunks LIBSVM + counting pass", n,
           timed(lambda: drain(iter_chunks(svm, 100_000)), 1), svm)  # fmt: skip
    record("skewlearn read_libsvm (compiled, whole file)", n,
           timed(lambda: read_libsvm(svm), r), svm)  # fmt: skip
    record("scikit-learn load_svmlight_file", n,
           timed(lambda: load_svmlight_file(svm, n_features=50), r), svm)  # fmt: skip
    record("skewlearn iter_chunks CSV (compiled)", n,
           timed(lambda: drain(iter_chunks(csv, 100_000, positive_class=1)), r), csv)  # fmt: skip
    record("skewlearn read_csv (compiled, whole file)", n,
           timed(lambda: read_csv(csv), r), csv)  # fmt: skip
    record("pandas read_csv (C engine, whole file)", n,
           timed(lambda: pd.read_csv(csv, dtype=np.float64), r), csv)  # fmt: skip
    record("pandas read_csv (C engine, chunks of 100k)", n,
           timed(lambda: sum(len(c) for c in pd.read_csv(csv, chunksize=100_000)), r),
           csv)  # fmt: skip

    width = max(map(len, results))
    print(f"{n:,} rows x 50 features; rows per CPU second (wall in brackets)")
    for name, res in results.items():
        print(f"{name:<{width}}  {res['rows_per_cpu_s']:>12,.0f}  ({res['rows_per_s']:,.0f})")
    return results


if __name__ == "__main__":
    main()
