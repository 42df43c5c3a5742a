"""A LIBSVM file through ``skewlearn stream`` from disk: time and peak memory.

Writes (once) a ``--rows``-row LIBSVM stream with ``make_libsvm.py`` (50 features, 5%
positives) and runs, each in its own process under ``/usr/bin/time -v``::

    skewlearn stream FILE --model PassiveAggressive --param variant=pa1 \\
        --chunk-size 1000 --auc-bins 4096 --checkpoints 5 --no-progress
    skewlearn stream FILE --model KOIL --param budget_pos=100 budget_neg=100 gamma=0.02 \\
        --chunk-size 1000 --auc-bins 4096 --checkpoints 5 --no-progress

and the PA-I command once more with ``--positive-class 1 --n-features 50`` (read in one
pass, without the counting pass), reporting the maximum resident set size, wall and CPU
(user + system) seconds, and the final line, after an untimed run of each command on a
2,000-row prefix (so numba's disk cache holds every signature: the figures are those of an
installation's later runs).
The PA-I command on the 2,000-row prefix gives the fixed part of the resident set
(imports and numba's run-time, nothing that depends on the file); the same command run
through ``python -c "...main(argv)"`` shows what it would be with pandas, which
scikit-learn imports in a Python session and ``skewlearn stream`` keeps out of its own
process (see ``skewlearn.cli._keep_pandas_out``). In-process, ``tracemalloc`` measures
the peak of Python/numpy allocations while :func:`~skewlearn.evaluation.prequential`
reads the file with :func:`~skewlearn.datasets.iter_chunks` (the part that would grow
with the file).

Run::

    python benchmarks/bench_stream.py --rows 10000000 --path /tmp/stream10m.svm
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))

from make_libsvm import write_stream

MODELS = {
    "PassiveAggressive": ["--param", "variant=pa1"],
    "KOIL": ["--param", "budget_pos=100", "budget_neg=100", "gamma=0.02"],
}


def _skewlearn() -> list[str]:
    exe = shutil.which("skewlearn", path=os.path.dirname(sys.executable)) or shutil.which(
        "skewlearn"
    )
    return [exe] if exe else [sys.executable, "-m", "skewlearn.cli"]


def timed_run(argv: list[str]) -> dict:
    time_bin = "/usr/bin/time"
    if not os.path.exists(time_bin):
        raise SystemExit("bench_stream needs GNU time: apt-get install time")
    proc = subprocess.run([time_bin, "-v", *argv], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{proc.stderr[-2000:]}")
    err = proc.stderr

    def field(name):
        m = re.search(rf"{re.escape(name)}: (.+)", err)
        return m.group(1).strip() if m else None

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    parts = [float(p) for p in wall.split(":")]
    seconds = sum(p * 60**k for k, p in enumerate(reversed(parts)))
    final = [ln for ln in proc.stdout.splitlines() if ln.startswith("final:")]
    return {
        "command": " ".join(["python" if argv[0] == sys.executable else "skewlearn", *argv[1:]]),
        "max_rss_mb": int(field("Maximum resident set size (kbytes)")) / 1024,
        "wall_s": seconds,
        "cpu_s": float(field("User time (seconds)")) + float(field("System time (seconds)")),
        "final": final[0] if final else "",
        "stdout": proc.stdout,
    }


def traced_stream(path: str, rows: int) -> dict:
    import tracemalloc

    from skewlearn import PassiveAggressive
    from skewlearn.datasets import iter_chunks
    from skewlearn.evaluation import prequential

    PassiveAggressive().fit([[0.0] * 50, [1.0] * 50], [0, 1])
    tracemalloc.start()
    c = time.process_time()
    stream = iter_chunks(path, chunk_size=1000)
    res = prequential(PassiveAggressive(), stream, keep_scores=False, auc_bins=4096)
    cpu = time.process_time() - c
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"rows": res.n_rows, "tracemalloc_peak_mb": peak / 1e6, "cpu_s": cpu}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--path", default=None, help="the LIBSVM file (written if missing)")
    ap.add_argument("--models", default=",".join(MODELS))
    args = ap.parse_args(argv)
    path = args.path or os.path.join(tempfile.gettempdir(), f"bench_stream_{args.rows}.svm")
    if not os.path.exists(path):
        free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
        need = args.rows * 560
        if free < 2 * need:
            raise SystemExit(f"{path}: needs about {need / 1e9:.1f} GB, {free / 1e9:.1f} free")
        info = write_stream(path, args.rows)
        print(f"wrote {path}: {info['bytes'] / 1e9:.2f} GB in {info['seconds']:.0f} s")
    exe = _skewlearn()
    # Warm numba's disk cache first (a new signature compiles once per installation, and
    # compiling takes memory): each model streams a 2,000-row prefix, untimed.
    prefix = os.path.join(tempfile.gettempdir(), "bench_stream_prefix.svm")
    with open(path, "rb") as src, open(prefix, "wb") as dst:
        dst.writelines(line for _, line in zip(range(2000), src))
    for name in args.models.split(","):
        subprocess.run([*exe, "stream", prefix, "--model", name, *MODELS[name], "--chunk-size",
                        "1000", "--auc-bins", "4096", "--no-progress"], check=True,
                       capture_output=True)  # fmt: skip
    res = {"path": path, "rows": args.rows, "bytes": os.path.getsize(path)}
    small = ["stream", prefix, "--model", "PassiveAggressive", *MODELS["PassiveAggressive"],
             "--chunk-size", "1000", "--auc-bins", "4096", "--no-progress"]  # fmt: skip
    res["baseline"] = timed_run([*exe, *small])
    in_python = "import sys; from skewlearn.cli import main; main(sys.argv[1:])"
    res["baseline_with_pandas"] = timed_run([sys.executable, "-c", in_python, *small])
    for name in args.models.split(","):
        argv_ = [*exe, "stream", path, "--model", name, *MODELS[name], "--chunk-size", "1000",
                 "--auc-bins", "4096", "--checkpoints", "5", "--no-progress"]  # fmt: skip
        res[name] = timed_run(argv_)
        print(f"{name}: max RSS {res[name]['max_rss_mb']:.0f} MB, {res[name]['wall_s']:.0f} s "
              f"wall, {res[name]['cpu_s']:.0f} s CPU; {res[name]['final']}")  # fmt: skip
        if name == "PassiveAggressive":  # the width and positive class given: no counting pass
            one = f"{name}, one pass"
            res[one] = timed_run([*argv_, "--positive-class", "1", "--n-features", "50"])
            print(f"{one}: {res[one]['wall_s']:.0f} s wall, {res[one]['cpu_s']:.0f} s CPU")
    res["traced"] = traced_stream(path, args.rows)
    base, traced = res["baseline"]["max_rss_mb"], res["traced"]["tracemalloc_peak_mb"]
    with_pd = res["baseline_with_pandas"]["max_rss_mb"]
    print(f"baseline (2,000-row prefix): max RSS {base:.0f} MB ({with_pd:.0f} MB with pandas); "
          f"tracemalloc peak: {traced:.1f} MB")  # fmt: skip
    return res


if __name__ == "__main__":
    main()
