"""No compiled sum may depend on where numpy or numba put the arrays.

The kernels are compiled with LLVM's ``reassoc`` fast-math flag (src/skewlearn/_config.py),
which lets the loop vectoriser add a sum in another order (four or more partial sums)
than the scalar loop does. That is deterministic as long as the same loop always runs. But
a loop that *stores* into an array is vectorised behind a run-time alias check, and LLVM's
check compares addresses: ``dst - src < 128`` bytes picks the scalar loop even for arrays
that do not overlap. A vectorised sum in such a loop therefore rounds differently
depending on where malloc placed a scratch array — OAM's pairwise step and OPAUC's gradient
did (``test_oam.py::test_pickled_model_continues_identically_with_infinite_buffer`` failed
once in three full runs, by one ulp). The kernels now keep every sum in a loop that stores
nothing; this test compiles every kernel afresh and checks their LLVM IR for a run-time
checked vector loop that carries a floating-point reduction.
"""

from __future__ import annotations

import os
import re
import tempfile
import warnings

import numpy as np
import scipy.sparse as sp
from numba import njit

from skewlearn._config import FASTMATH

from .test_determinism import json_from_subprocess

_LABEL = re.compile(r"^([A-Za-z0-9_.$\"-]+):", re.M)
_VECTOR_FP_PHI = re.compile(r"= phi (?:[a-z]+ )*<\d+ x (?:double|float)>")
_CHECKED_BRANCH = re.compile(r"\n\s*br i1 [^,]+, label %([^\s,]+), label %([^\s,]+)")
_ANY_BRANCH = re.compile(r"\n\s*br (?:i1 [^,]+, )?label %([^\s,]+)(?:, label %([^\s,]+))?")


def _blocks(function_ir: str) -> dict[str, str]:
    parts = _LABEL.split(function_ir)
    return {parts[k]: parts[k + 1] for k in range(1, len(parts) - 1, 2)}


def _successors(body: str) -> list[str]:
    m = _ANY_BRANCH.search(body)
    return [g for g in m.groups() if g] if m else re.findall(r"label %([^\s,\]]+)", body)


def address_dependent_sums(ir: str) -> tuple[list[str], int, int]:
    """Run-time alias checks of ``ir`` whose vector path reaches a loop with a vector
    floating-point phi (a reduction), with the number of checks and of such phis seen.

    LLVM names the check blocks ``vector.memcheck…`` (its ``diff.check``/``found.conflict``
    values branch to the scalar loop when true); the vector path is followed until the
    loop's ``middle.block`` (or the scalar preheader), where the vector loop ends.
    """
    risky, checks = [], 0
    for fm in re.finditer(r"define [^@]*@\"?([^\"(]+)\"?\((.*?)\n}\n", ir, re.S):
        name, blocks = fm.group(1), _blocks(fm.group(0))
        for label, body in blocks.items():
            if not label.startswith("vector.memcheck"):
                continue
            checks += 1
            branch = _CHECKED_BRANCH.search(body)
            if branch is None:
                continue
            seen, stack = {branch.group(1)}, [branch.group(2)]
            while stack:
                b = stack.pop()
                if b in seen or b not in blocks:
                    continue
                seen.add(b)
                if _VECTOR_FP_PHI.search(blocks[b]):
                    risky.append(f"{name}: {label}")
                    break
                if "middle.block" not in b and "scalar.ph" not in b:
                    stack.extend(_successors(blocks[b]))
    return risky, checks, len(_VECTOR_FP_PHI.findall(ir))


def ir_audit() -> dict:
    """Fit every estimator on dense float64, float32 and CSR rows (learn, stream, score),
    run every streaming AUC (exact, windowed, histogram) and the readers' parsers, then
    audit the IR of every skewlearn kernel compiled on the way."""
    from numba.core.registry import CPUDispatcher

    from skewlearn._discovery import all_estimators
    from skewlearn.datasets import iter_chunks, read_csv, read_libsvm
    from skewlearn.metrics import (
        PRAUC,
        ROCAUC,
        HistogramPRAUC,
        HistogramROCAUC,
        WindowedPRAUC,
        WindowedROCAUC,
    )

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 12))
    y = (X[:, 0] + 0.5 * rng.normal(size=80) > 0.8).astype(np.int64)
    y[:2] = [0, 1]
    Xs = sp.csr_matrix(np.where(rng.random(X.shape) < 0.3, X, 0.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cls in all_estimators().values():
            for params in cls._test_params:
                for rows in (X, X.astype(np.float32), Xs):
                    try:
                        est = cls(**params).fit(rows, y)
                    except (TypeError, ValueError):  # an input kind it refuses
                        continue
                    if hasattr(est, "decision_function"):
                        est.decision_function(rows)
                    if hasattr(est, "test_then_train"):
                        est.test_then_train(rows[:10], y[:10])
        metrics = (ROCAUC(), PRAUC(), WindowedROCAUC(window=20), WindowedPRAUC(window=20))
        for metric in (*metrics, HistogramROCAUC(), HistogramPRAUC()):
            metric.update_many(y, X[:, 0])
            for label, score in zip(y[:5], X[:5, 0]):
                metric.update(label, score)
            metric.get()
        # the readers' compiled parsers (a LIBSVM and a CSV file, whole and in chunks)
        with tempfile.TemporaryDirectory() as tmp:
            svm, csv = os.path.join(tmp, "s.svm"), os.path.join(tmp, "s.csv")
            rows = list(zip(y, *X[:, :2].T))
            with open(svm, "w", encoding="utf-8") as f:
                f.writelines(f"{2 * b - 1} 1:{u:.6f} 3:{v:.6f}\n" for b, u, v in rows)
            with open(csv, "w", encoding="utf-8") as f:
                f.write("a,b,label\n")
                f.writelines(f"{u:.6f},{v:.6f},{b}\n" for b, u, v in rows)
            read_libsvm(svm)
            read_csv(csv)
            for path in (svm, csv):
                for _ in iter_chunks(path, chunk_size=16):
                    pass
    import gc

    risky, checks, phis, kernels = [], 0, 0, 0
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher) or not obj.signatures:
            continue
        if not obj.py_func.__module__.startswith("skewlearn"):
            continue
        for sig in obj.signatures:
            ir = obj.inspect_llvm(sig)
            assert ir, f"{obj.py_func.__qualname__}: no IR (compiled from a cache?)"
            kernels += 1
            r, c, p = address_dependent_sums(ir)
            where = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"
            risky += [f"{where} ({x.rsplit(': ', 1)[-1]})" for x in r]
            checks += c
            phis += p
    return {"risky": sorted(set(risky)), "checks": checks, "phis": phis, "kernels": kernels}


SCRIPT = r"""
import json, sys
from tests.reliability.test_vectorised_sums import ir_audit
json.dump(ir_audit(), sys.stdout)
"""


def test_no_vectorised_sum_depends_on_where_the_arrays_are(tmp_path):
    # an empty numba cache: every kernel is compiled there, so its IR can be read
    audit = json_from_subprocess(
        SCRIPT, "the IR audit subprocess", timeout=1500, NUMBA_CACHE_DIR=str(tmp_path)
    )
    # the audit saw the kernels, their alias checks and their vector sums: if LLVM's names
    # change, these fail rather than the audit passing on nothing
    assert audit["kernels"] >= 60 and audit["checks"] >= 40 and audit["phis"] >= 20, audit
    assert audit["risky"] == [], (
        "a vectorised sum sits in a loop behind a run-time alias check, so its rounding "
        f"depends on array addresses: {audit['risky']}. Move the sum to a loop that "
        "stores nothing."
    )


def test_the_audit_finds_a_sum_in_a_loop_that_stores():
    """The audit flags the pattern OAM had (a scratch array written in the loop that sums)
    and passes the same arithmetic with the sum in a loop of its own."""

    @njit(fastmath=FASTMATH)
    def fused(w, x, b, diff):
        f = 0.0
        for c in range(x.shape[0]):
            diff[c] = x[c] - b[c]
            f += w[c] * diff[c]
        return f

    @njit(fastmath=FASTMATH)
    def split(w, x, b, diff):
        for c in range(x.shape[0]):
            diff[c] = x[c] - b[c]
        f = 0.0
        for c in range(x.shape[0]):
            f += w[c] * diff[c]
        return f

    a = np.arange(16.0)
    for kernel, expect in ((fused, 1), (split, 0)):
        kernel(a, a + 1.0, a * 0.5, np.empty(16))
        risky, checks, phis = address_dependent_sums(kernel.inspect_llvm(kernel.signatures[0]))
        assert len(risky) == expect and phis >= 1, (kernel, risky, checks, phis)
