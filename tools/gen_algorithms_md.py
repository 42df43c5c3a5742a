"""Regenerate docs/algorithms.md (equation → code map) from the estimators' docstrings.

Run: python tools/gen_algorithms_md.py  (tests/test_docs.py checks the file is current).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import io
import re
import sys
import textwrap
import tokenize
from pathlib import Path

from skewlearn._discovery import all_estimators

FAMILIES = [
    ("Online linear learners", "skewlearn.linear"),
    ("Online AUC maximisation", "skewlearn.auc"),
    ("Budgeted online kernel learners", "skewlearn.kernel"),
    ("Online ensembles for imbalanced streams", "skewlearn.ensemble"),
    ("Batch learners", "skewlearn.batch"),
]
SHARED = """## Shared machinery

| piece | where | what it implements |
|---|---|---|
| row accessors | `skewlearn/_rows.py` | `w·[x, b]`, `‖[x, b]‖²`, `w += a·[x, b]`, diagonal quadratic forms over dense rows or CSR, never densified |
| prequential driver | `skewlearn/base.py` (`OnlineClassifier._run`) | validation, labels → ±1, one compiled pass returning pre-update scores |
| randomness | `skewlearn/_rng.py` | SplitMix64 with its state in the model (`rng_state_`) |
| kernels | `skewlearn/kernels.py` | rbf `exp(−γ‖x−y‖²)`, poly `(γ x·y + c₀)^p`, linear; row and Gram helpers |
| budgets | `skewlearn/kernel/budget.py` | RS, FIFO, RS++, FIFO++ (KOIL Eqs. 13–14) and infinite buffers with incremental Gram and f caches |
| metrics | `skewlearn/metrics/batch.py`, `streaming.py`, `histogram.py` | ROC/PR AUC, F-beta, G-mean; exact streaming versions; OMCSL's m-bin AUROC/AUPRC |
"""


#: The longest rule shown inline in a table cell; longer ones (and any with a LaTeX line
#: break ``\\``, which a one-line cell cannot hold) are shown whole below the table.
INLINE = 220


def _math_lines(doc: str) -> list[str]:
    """The lines of the docstring's first ``.. math::`` block, dedented."""
    m = re.search(r"\.\. math::[ \t]*(.*)\n((?:\s*\n|[ \t]+.*\n)*)", doc + "\n")
    if not m:
        return []
    body = textwrap.dedent(m.group(2)).strip("\n").splitlines()
    return [line.rstrip() for line in [m.group(1).strip(), *body] if line.strip()]


def _first_math(doc: str) -> str:
    """The rule on one line for a table cell ("" when it does not fit: see :func:`_block`)."""
    lines = _math_lines(doc)
    text = " ".join(line.strip() for line in lines)
    if len(text) > INLINE or "\\\\" in text:
        return ""
    return f"${text.replace('|', chr(92) + '|')}$"


def _block(name: str, doc: str) -> list[str]:
    """The rule whole, as a display-math block under a heading named for the estimator."""
    return [f"### {name}", "", "```math", *_math_lines(doc), "```", ""]


def _reference(doc: str) -> str:
    m = re.search(r"\.\. \[1\]\s+(.+?)(?:\n\s*\n|\n\s*\.\. |\Z)", doc, re.S)
    return " ".join(m.group(1).split()).replace("|", "\\|") if m else ""


def _code_names(obj) -> set[str]:
    """The identifiers in the code of ``obj`` (docstrings, strings and comments left out,
    and type hints: ``est: MultiNystroemMKL | SimpleMKL`` runs neither class's code)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            node.annotation = None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node.returns = None
        elif isinstance(node, ast.AnnAssign):
            node.annotation = ast.Constant(None)
    source = ast.unparse(tree)
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME}


def _reached(cls) -> tuple[set[str], set[str]]:
    """The compiled functions of the class's module that its code reaches, and every name
    that code uses. Reaching follows the class (and its bases in the same module) into the
    module's Python functions and classes it names (called, or passed on as
    ``delayed(f)``) and into module-level tables of functions (option string → kernel);
    compiled functions are entry points and are not followed further."""
    module = inspect.getmodule(cls)
    local, compiled, tables = {}, set(), {}
    for name, obj in vars(module).items():
        py_func = getattr(obj, "py_func", None)  # a numba dispatcher
        if py_func is not None and py_func.__module__ == module.__name__:
            compiled.add(name)
        elif (
            inspect.isfunction(obj) or inspect.isclass(obj)
        ) and obj.__module__ == module.__name__:
            local[name] = obj
        elif isinstance(obj, dict | list | tuple):
            values = obj.values() if isinstance(obj, dict) else obj
            tables[name] = {getattr(v, "__name__", None) for v in values} - {None}
    todo = [k for k in cls.__mro__ if k.__module__ == cls.__module__]
    used, done = set(), set()
    while todo:
        names = _code_names(todo.pop())
        for name in list(names):
            names |= tables.get(name, set())
        used |= names
        for name in names - done:
            done.add(name)
            if name in local and local[name] is not cls:
                todo.append(local[name])
    return used & compiled, used


#: Names whose use means the work is done by a library rather than by our compiled code.
_LAPACK = {"dpotrf", "dpotrs", "dsyrk", "eigh", "cholesky", "cho_factor", "cho_solve",
           "solve_triangular", "lstsq", "svd"}  # fmt: skip


def _kernels(cls) -> str:
    """The compiled functions that run the class, and for a batch learner the library that
    does (the rest of) the work: libsvm via scikit-learn's SVC, or LAPACK via scipy."""
    kernels, used = _reached(cls)
    names = ", ".join(f"`{k}`" for k in sorted(kernels))
    library = ""
    if "SVC" in used:
        library = "libsvm via scikit-learn's SVC"
    elif used & _LAPACK:
        library = "BLAS/LAPACK via scipy"
    if names and library and cls.__module__.startswith("skewlearn.batch"):
        return f"{names}; {library}"
    return names or f"— ({library or 'numpy'})"


def render() -> str:
    out = [
        "# Algorithms: equation → code",
        "",
        "Generated by `python tools/gen_algorithms_md.py` from the estimators' docstrings (each",
        "docstring states its update rule and cites its paper; the compiled functions named here",
        "implement it). A test keeps this file in step with the code.",
        "",
        SHARED,
    ]
    estimators = all_estimators()
    for title, package in FAMILIES:
        members = [(n, c) for n, c in estimators.items() if c.__module__.startswith(package)]
        if not members:
            continue
        out += [
            f"## {title}",
            "",
            "| estimator | module | compiled kernel(s) | rule (from the docstring) | paper |",
            "|---|---|---|---|---|",
        ]
        long = []
        for name, cls in members:
            doc = inspect.getdoc(cls) or ""
            kern = _kernels(cls)
            mod = cls.__module__.replace(".", "/") + ".py"
            rule = _first_math(doc)
            if not rule and _math_lines(doc):
                rule = f"[below](#{name.lower()})"
                long += _block(name, doc)
            out.append(f"| `{name}` | `{mod}` | {kern} | {rule} | {_reference(doc)} |")
        out.append("")
        if long:
            out += ["Rules too long for the table, whole:", "", *long]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when docs/algorithms.md is not current; write nothing")  # fmt: skip
    args = ap.parse_args()
    target = Path(__file__).resolve().parents[1] / "docs" / "algorithms.md"
    text = render()
    if args.check:
        sys.exit(0 if target.read_text(encoding="utf-8") == text else 1)
    target.write_text(text, encoding="utf-8")
