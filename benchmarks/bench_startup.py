"""Start-up costs: ``import skewlearn``, the first call of a learner in a fresh process
with a cold and a warm numba disk cache, and what float32 input costs.

* import: ``python -c "import skewlearn"`` in fresh processes (best of ``--repeat``),
  wall and CPU seconds; ``from skewlearn import PassiveAggressive`` (the first use of a
  learner, which imports scikit-learn, numba and the online linear family); and
  ``import sklearn.base, numba`` alone (the part we do not control); which heavy
  optional modules got imported (tqdm, matplotlib, dask, river must not be).
* first call: a fresh process times its first ``fit`` on 200 rows, once with an empty
  ``NUMBA_CACHE_DIR`` (cold: numba compiles and writes the cache) and then again (warm:
  the compiled code is loaded from disk).
* float32: ``fit`` on float32 input vs the same data in float64, rows/CPU-s and the
  peak of allocations (tracemalloc): the online linear learners take float32 without a
  copy (``base.FLOAT32_ROWS``); the float64 copy it would need is timed beside.

Run::

    python benchmarks/bench_startup.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

PY = sys.executable

_IMPORT = """
import json, time, sys
c, t = time.process_time(), time.perf_counter()
{stmt}
cpu, wall = time.process_time() - c, time.perf_counter() - t
heavy = [m for m in ("tqdm", "matplotlib", "dask", "river", "pandas", "numba", "sklearn")
         if m in sys.modules]
print(json.dumps({{"cpu": cpu, "wall": wall, "loaded": heavy}}))
"""

_FIRST = """
import json, time, numpy as np
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 20)); y = (X[:, 0] > 1.0).astype(int)
c, t = time.process_time(), time.perf_counter()
import skewlearn
est = skewlearn.{name}({params})
imp_c, imp_t = time.process_time() - c, time.perf_counter() - t
c, t = time.process_time(), time.perf_counter()
est.fit(X, y)
print(json.dumps({{"cpu": time.process_time() - c, "wall": time.perf_counter() - t}}))
"""

FIRST_CALL = {
    "Perceptron": "",
    "PassiveAggressive": "",
    "AROW": "",
    "OAM": "",
    "KOIL": "gamma=0.05",
    "OMCSL": "",
}


def _run(code: str, env=None) -> dict:
    out = subprocess.run(
        [PY, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def import_times(repeat: int) -> dict:
    res = {}
    for label, stmt in (
        ("import skewlearn", "import skewlearn"),
        ("from skewlearn import PassiveAggressive", "from skewlearn import PassiveAggressive"),
        ("import sklearn.base, numba", "import sklearn.base, numba"),
    ):
        runs = [_run(_IMPORT.format(stmt=stmt)) for _ in range(repeat)]
        # best of the runs, CPU and wall separately (a shared machine only adds time)
        res[label] = {
            "cpu": min(r["cpu"] for r in runs),
            "wall": min(r["wall"] for r in runs),
            "loaded": runs[0]["loaded"],
        }
    return res


def first_calls() -> dict:
    res = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for name, params in FIRST_CALL.items():
            code = _FIRST.format(name=name, params=params)
            cold = _run(code, env)
            warm = _run(code, env)
            res[name] = {"cold": cold, "warm": warm}
    return res


def float32_cost(rows: int) -> dict:
    import tracemalloc

    import numpy as np

    from skewlearn import PassiveAggressive

    rng = np.random.default_rng(0)
    X64 = rng.normal(size=(rows, 50))
    y = (X64[:, 0] > 1.6).astype(int)
    X32 = X64.astype(np.float32)
    PassiveAggressive().fit(X64[:100], y[:100])
    out = {}
    for label, X in (("float64", X64), ("float32", X32)):
        best = None
        for _ in range(3):
            c = time.process_time()
            PassiveAggressive().fit(X, y)
            cpu = time.process_time() - c
            best = cpu if best is None else min(best, cpu)
        tracemalloc.start()
        PassiveAggressive().fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        out[label] = {"cpu_s": best, "rows_per_cpu_s": rows / best, "peak_mb": peak / 1e6}
    c = time.process_time()
    for _ in range(3):
        X32.astype(np.float64)
    out["astype_float64_cpu_s"] = (time.process_time() - c) / 3
    out["input_mb_float64"] = X64.nbytes / 1e6
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--float32-rows", type=int, default=1_000_000)
    args = ap.parse_args(argv)
    res = {
        "import": import_times(args.repeat),
        "first_call": first_calls(),
        "float32": float32_cost(args.float32_rows),
    }
    print(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
