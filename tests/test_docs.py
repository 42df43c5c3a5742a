"""The documentation that is generated from the code is current."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from skewlearn._discovery import all_estimators

ROOT = Path(__file__).resolve().parents[1]


def test_algorithms_md_is_current():
    """docs/algorithms.md equals what tools/gen_algorithms_md.py renders from the docstrings."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_algorithms_md.py"), "--check"],
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, "run: python tools/gen_algorithms_md.py"


def test_algorithms_md_names_every_estimator():
    text = (ROOT / "docs" / "algorithms.md").read_text(encoding="utf-8")
    missing = [name for name in all_estimators() if f"`{name}`" not in text]
    assert not missing


def test_algorithms_md_shows_every_rule_whole():
    """Session 20: rules longer than 220 characters were cut with "…" mid-formula (CW,
    NAROW, NHERD, SCW, Forgetron, Projectron), leaving unbalanced LaTeX, and a LaTeX line
    break ``\\\\`` was written as ``\\`` (NAROW's and TruncatedGradient's cases). Every
    line of each estimator's first ``.. math::`` block must appear as written, or the
    whole rule on one line in the table."""
    import inspect
    import textwrap

    text = (ROOT / "docs" / "algorithms.md").read_text(encoding="utf-8")
    assert "…$" not in text
    for name, cls in all_estimators().items():
        doc = inspect.getdoc(cls) or ""
        m = re.search(r"\.\. math::[ \t]*(.*)\n((?:\s*\n|[ \t]+.*\n)*)", doc + "\n")
        if not m:
            continue
        body = textwrap.dedent(m.group(2)).splitlines()
        lines = [ln.rstrip() for ln in [m.group(1).strip(), *body] if ln.strip()]
        one_line = "$" + " ".join(ln.strip() for ln in lines).replace("|", "\\|") + "$"
        whole = "\n".join(["```math", *lines, "```"])
        assert one_line in text or whole in text, name


def test_algorithms_md_names_the_code_that_runs_each_learner():
    """The "compiled kernel(s)" column follows the class into its module's helpers. Before
    session 15 it looked only at the class's own methods, so MultiNystroemMKL, whose SVM is
    solved by the compiled dual coordinate descent ``_dcd_hinge`` (via LinearSVMObjective),
    and SVMDEC/SVMSDC/SimpleMKL, which run libsvm through scikit-learn's SVC, were all
    listed as "— (BLAS/LAPACK via scipy)"."""
    rows = {}
    for line in (ROOT / "docs" / "algorithms.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("| `") and line.count("|") >= 6:
            rows[line.split("`")[1]] = line.split(" | ")[2]
    assert "`_dcd_hinge`" in rows["MultiNystroemMKL"]
    for name in ("SVMDEC", "SVMSDC", "SimpleMKL"):
        assert "libsvm" in rows[name] and "BLAS/LAPACK via scipy" not in rows[name], name
    for name in ("LinearASLS", "KernelASLS", "ProximalSVMDEC", "StratifiedNystroem"):
        assert "LAPACK" in rows[name], name


def test_every_estimator_cites_its_paper():
    """numpydoc References with a [1] entry, as STYLE.md asks."""
    missing = [n for n, c in all_estimators().items() if ".. [1]" not in (c.__doc__ or "")]
    assert not missing


def test_every_tool_answers_help_without_running_or_writing(tmp_path):
    """``python tools/X.py --help`` prints its usage and exits 0: no run, no file written
    (before session 9 some ran their full diagnostics, one rewrote docs/algorithms.md and
    one created a database named ``--help``)."""
    target = ROOT / "docs" / "algorithms.md"
    before = target.stat().st_mtime_ns
    tools = sorted((ROOT / "tools").glob("*.py"))
    assert len(tools) >= 6
    for tool in tools:
        done = subprocess.run(
            [sys.executable, str(tool), "--help"],
            cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (tool.name, done.stderr[-500:])
        assert done.stdout.startswith("usage:"), tool.name
    assert list(tmp_path.iterdir()) == [] and target.stat().st_mtime_ns == before


def _python_blocks(path: Path) -> list[tuple[str, str | None]]:
    """The ```python blocks of a Markdown file, each with the ```text block that follows
    it directly (its documented output), or None."""
    import re

    text = path.read_text(encoding="utf-8")
    pattern = r"```python\n(.*?)```\n(?:\n```text\n(.*?)```)?"
    return [(code, out) for code, out in re.findall(pattern, text, re.S)]


def _run_blocks(path: Path, namespace: dict | None = None) -> list[tuple[str, str, str | None]]:
    """Run the blocks in order in one namespace (``namespace``, if given, is it, so the
    caller can look at the variables): (code, printed output, documented)."""
    import contextlib
    import io

    namespace = {"__name__": "__docs__"} if namespace is None else namespace
    runs = []
    for i, (code, documented) in enumerate(_python_blocks(path)):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(code, f"{path.name}:block{i}", "exec"), namespace)
        runs.append((code, buf.getvalue(), documented or None))
    return runs


def test_readme_python_examples_run():
    """The README's Python examples run as written (they were never executed by a test)."""
    namespace: dict = {"__name__": "__docs__"}
    runs = _run_blocks(ROOT / "README.md", namespace)
    assert len(runs) >= 2
    printed = runs[0][1].split("\n")
    assert float(printed[0]) > 0.9 and 0 < float(printed[1]) < 1  # AUC, G-mean
    assert "rows_per_s" in runs[0][1]
    # "print(res.final["auc"])  # equal to auc above" (of test_then_train's scores)
    assert printed[-1] == "" and float(printed[-2]) == namespace["auc"]
    # the imbalanced-learn pipeline is only built there; it also fits and predicts
    X, y = namespace["X"], namespace["y"]  # yeast4, from the Data section's block
    assert set(namespace["pipe"].fit(X, y).predict(X)) <= set(y)


def test_the_readme_sampler_pipeline_takes_a_dataframe_and_sparse_rows():
    """Session 23: the README's imbalanced-learn example shuffled with ``X[perm],
    y[perm]``, which on a pandas DataFrame selects *columns* (and on a Series after the
    sampler, index labels): a user with a DataFrame, the usual input, got a KeyError from
    the example as written. Its pipeline must fit a DataFrame with text labels, a CSR
    matrix and an array, and the shuffle must reorder the sampler's rows, the same way at
    every fit."""
    import numpy as np
    import pandas as pd
    import scipy.sparse as sp
    from sklearn.datasets import make_classification

    (code,) = [c for c, _ in _python_blocks(ROOT / "README.md") if "FunctionSampler" in c]
    namespace: dict = {"__name__": "__docs__"}
    exec(compile(code, "README.md:imblearn", "exec"), namespace)
    pipe = namespace["pipe"]
    X, y01 = make_classification(n_samples=400, weights=[0.9], random_state=0)
    y = np.where(y01 == 1, "fraud", "ok")
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    for X_in, y_in in [(frame, pd.Series(y)), (sp.csr_matrix(X), y), (X, y)]:
        assert set(pipe.fit(X_in, y_in).predict(X_in)) <= {"fraud", "ok"}
    sampler = pipe.steps[1][1]  # the shuffling step, alone
    _, y_out = sampler.fit_resample(frame, pd.Series(y).sort_values())
    assert sorted(y_out) == sorted(y) and list(y_out) != sorted(y)
    _, y_again = sampler.fit_resample(frame, pd.Series(y).sort_values())
    assert list(y_again) == list(y_out)  # seeded: the same stream at every fit


def _undefined_names(code: str) -> set[str]:
    """The names a block reads but neither imports, assigns nor gets from builtins."""
    import ast
    import builtins

    tree = ast.parse(code)
    defined = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            defined.add(node.id)
        elif isinstance(node, ast.alias):
            defined.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return read - defined


def test_each_python_example_runs_on_its_own():
    """Session 19: a user copies one section's example, not the page. The guide's batch
    example used ``make_classification``, imported only by the online one above it, and
    the README's imbalanced-learn example ``np`` and ``KOIL`` from the Python section:
    copied alone, each stopped with a NameError."""
    missing = {}
    for doc in ("README.md", "docs/guide.md", "docs/experiments.md"):
        for i, (code, _) in enumerate(_python_blocks(ROOT / doc)):
            if names := _undefined_names(code):
                missing[f"{doc} block {i}"] = sorted(names)
    assert not missing, missing


def test_guide_examples_print_what_the_guide_shows():
    """docs/guide.md's examples run, and print exactly the tables the guide shows (its
    figures come from the current code)."""
    runs = _run_blocks(ROOT / "docs" / "guide.md")
    assert len(runs) == 2 and all(documented for _, _, documented in runs)
    for code, printed, documented in runs:
        assert printed == documented, f"docs/guide.md block:\n{code}\nprinted:\n{printed}"


def test_the_guide_shows_how_to_score_text_labels_and_its_scorers_score_that_class():
    """Session 23: a user with "fraud"/"ok" labels who follows the guide's batch section
    with ``scoring="f1"`` or ``"average_precision"`` met scikit-learn's "pos_label=1 is
    not a valid label", and ``make_scorer(f1)`` silently scored "ok" (skewlearn's metrics
    take the larger label); the guide said nothing of either. Its pitfalls now give the
    scorers that name the class; each one it quotes is run here and must score the
    positive class "fraud" (F1 of the predictions, average precision of its scores)."""
    import re

    import numpy as np
    from sklearn.datasets import make_classification
    from sklearn.metrics import average_precision_score, f1_score, get_scorer, make_scorer

    from skewlearn import LinearASLS
    from skewlearn.metrics import f1, gmean, pr_auc

    text = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    quoted = re.findall(r"`(make_scorer\([^`]*pos_label=\"fraud\"\))`", text)
    assert len(quoted) >= 2, "the guide names no scorer for text labels"
    X, y01 = make_classification(n_samples=600, weights=[0.9], random_state=0)
    y = np.where(y01 == 1, "fraud", "ok")
    clf = LinearASLS().fit(X, y)
    expected = {
        "f1": f1_score(y, clf.predict(X), pos_label="fraud"),
        "pr_auc": average_precision_score(y == "fraud", -clf.decision_function(X)),
    }
    names = {"make_scorer": make_scorer, "f1": f1, "pr_auc": pr_auc, "gmean": gmean}
    for code in quoted:
        scorer = eval(code, names)  # the guide's own text
        metric = re.match(r"make_scorer\((\w+)", code).group(1)
        assert scorer(clf, X, y) == pytest.approx(expected[metric], rel=1e-12), code
    # what the text says of scikit-learn's named scorers with these labels
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label"):
        get_scorer("f1")(clf, X, y)


def test_the_guide_says_which_learners_give_probabilities_and_how_to_get_them():
    """Session 25: a user who scores with ``scoring="neg_log_loss"`` (or any probability
    scorer) got NaN for every fold and a "Scoring failed" warning whose traceback ends in
    "'AROW' object has no attribute 'predict_proba'"; nothing in the docs said which
    learners give probabilities. The guide now names them, and a calibration that gives
    them; both claims are checked here: the learners (every value of a ``loss``
    parameter tried), and the quoted calibrator under that scorer with text labels."""
    import warnings

    import numpy as np
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.datasets import make_classification
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import cross_val_score
    from sklearn.utils._param_validation import StrOptions

    import skewlearn

    text = " ".join((ROOT / "docs" / "guide.md").read_text(encoding="utf-8").split())
    (named,) = re.findall(r"only `(\w+)\(loss=\"(\w+)\"\)` has `predict_proba`", text)
    having = set()
    for name, cls in all_estimators().items():
        losses = [o for c in cls._parameter_constraints.get("loss", []) for o in
                  (c.options if isinstance(c, StrOptions) else ())]  # fmt: skip
        for loss in losses or [None]:
            est = cls() if loss is None else cls(loss=loss)
            if hasattr(est, "predict_proba"):
                having.add((name, loss))
    assert having == {named}, having
    (code,) = re.findall(r"`(CalibratedClassifierCV\([^`]*\))`", text)
    X, y01 = make_classification(n_samples=1500, weights=[0.94], random_state=0)
    y = np.where(y01 == 1, "fraud", "ok")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bare = cross_val_score(skewlearn.AROW(), X, y, scoring="neg_log_loss", cv=3)
    assert np.isnan(bare).all() and any("Scoring failed" in str(w.message) for w in caught)
    make = {"CalibratedClassifierCV": CalibratedClassifierCV, "AROW": skewlearn.AROW}
    calibrated = eval(code, make)  # the guide's own text
    assert np.isfinite(cross_val_score(calibrated, X, y, scoring="neg_log_loss", cv=3)).all()
    proba = calibrated.fit(X[:1000], y[:1000]).predict_proba(X[1000:])
    fraud = list(calibrated.classes_).index("fraud")
    assert roc_auc_score(y[1000:] == "fraud", proba[:, fraud]) > 0.9
    assert np.allclose(proba.sum(axis=1), 1.0)


def test_reliability_md_counts_the_quick_validation_cases_the_test_runs():
    """Session 25: docs/reliability.md said the quick-validation test runs "26 kinds of
    later input" and that every input but the validated form takes the full validation;
    the same day a list or tuple of up to 16 plain labels took the quick path and 15
    kinds of listed labels joined the test, so the page named neither. Its counts are
    now those of the test's table: the kinds (each run at 6 and at 24 rows), the one-row
    calls, and the limit of the listed labels (``base._FEW``)."""
    from skewlearn import base
    from tests.reliability import test_quick_validation as quick

    text = " ".join((ROOT / "docs" / "reliability.md").read_text(encoding="utf-8").split())
    kinds = quick._later_calls(quick.XB, quick.YB)
    one_row = [case for case in quick.LATER_CALLS if case.startswith("one row")]
    stated = re.search(
        r"The test runs (\d+) kinds of later input, at (\d+) and at (\d+) rows", text
    )
    assert stated, "docs/reliability.md no longer states the cases of the quick-path test"
    assert int(stated.group(1)) == len(kinds)
    assert {int(stated.group(2)), int(stated.group(3))} == {len(quick.XB), len(quick.XL)}
    assert len(quick.LATER_CALLS) == 2 * len(kinds) + len(one_row)
    assert f"and {len(one_row)} one-row calls" in text
    assert f"a list or tuple of at most {base._FEW} plain values" in text


def test_the_guide_shows_what_large_features_do_to_the_kernel_learners():
    """Session 25: on features in the tens (a fraud table's amounts, unscaled) the default
    rbf kernel of KOIL and NORMA underflows between any two rows, and both learners score
    a prequential AUC of 0.500 without a word; the guide's "Scale the features" said only
    that gamma=1.0 suits [0, 1]. Its new figures are recomputed here on the stream of the
    guide's online example, features × 10 instead of min-max scaled."""
    import numpy as np
    from sklearn.datasets import make_classification

    from skewlearn import KOIL, NORMA
    from skewlearn.evaluation import prequential

    text = " ".join((ROOT / "docs" / "guide.md").read_text(encoding="utf-8").split())
    claim = re.search(
        r"`KOIL` and `NORMA` score a prequential AUC of (\d\.\d+) and (\d\.\d+) \(KOIL "
        r"(\d\.\d+) scaled\) and an F1 of (\d\.\d+) and (\d\.\d+), without a warning",
        text,
    )
    assert claim, "the guide no longer gives the kernel learners' figures"
    (code, table), *_ = _python_blocks(ROOT / "docs" / "guide.md")
    assert "weights=[0.97]" in code and re.search(rf"KOIL RS\+\+ +auc {claim.group(3)}", table)
    X, y = make_classification(n_samples=20_000, n_features=20, n_informative=6,
                               weights=[0.97], flip_y=0.01, random_state=0)  # fmt: skip
    finals = [prequential(clf, X * 10, y).final for clf in (KOIL(random_state=0), NORMA())]
    assert [f"{f['auc']:.3f}" for f in finals] == [claim.group(1), claim.group(2)]
    assert [f"{f['f1']:.3f}" for f in finals] == [claim.group(4), claim.group(5)]
    assert np.ptp(KOIL(random_state=0).fit(X * 10, y).decision_function(X[:50] * 10 + 1)) == 0


# --- docstrings against the code -------------------------------------------------------

#: Modules whose ``__all__`` is the public API the docs describe (skewlearn's own
#: ``__all__`` holds every estimator).
PUBLIC_MODULES = (
    "skewlearn",
    "skewlearn.metrics",
    "skewlearn.evaluation",
    "skewlearn.datasets",
    "skewlearn.experiments",
    "skewlearn.kernels",
    "skewlearn.compat.river",
)


def _doc_section(doc: str | None, title: str) -> list[str]:
    """The lines of one numpydoc section (``title`` over a line of dashes)."""
    import inspect
    import re

    lines = inspect.cleandoc(doc or "").splitlines()
    out, inside = [], False
    for i, line in enumerate(lines):
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if line and not line[0].isspace() and re.fullmatch(r"-{3,}", below.strip()):
            inside = line.strip() == title
        elif inside and not re.fullmatch(r"-{3,}", line.strip()):
            out.append(line)
    return out


def _documented_parameters(doc: str | None) -> list[tuple[str, str]]:
    """``(name, type text)`` for each name of a numpydoc Parameters section, in order
    (``a, b : float`` gives two; ``**kwargs`` gives ``kwargs``)."""
    out = []
    for line in _doc_section(doc, "Parameters"):
        if line and not line[0].isspace():
            names, _, kind = line.partition(" : ")
            out += [(n.strip().lstrip("*"), kind) for n in names.split(",") if n.strip()]
    return out


def _public_callables():
    """(qualified name, callable, docstring) of every public class, its public methods and
    every public function named in PUBLIC_MODULES' ``__all__``."""
    import importlib
    import inspect

    seen = set()
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if id(obj) in seen or not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            seen.add(id(obj))
            if inspect.isfunction(obj):
                yield f"{module_name}.{name}", obj, obj.__doc__
                continue
            yield f"{module_name}.{name}", obj.__init__, obj.__doc__
            for attr, member in vars(obj).items():
                if inspect.isfunction(member) and not attr.startswith("_"):
                    yield f"{module_name}.{name}.{attr}", member, member.__doc__


def _signature_drift(func, doc: str | None) -> list[str]:
    """How a docstring's Parameters section differs from the signature of ``func``: names
    (in order) and every ``default=...`` it states. Empty when they agree, or when the
    docstring has no Parameters section."""
    import inspect
    import math
    import re

    documented = _documented_parameters(doc)
    if not documented:
        return []
    params = {
        k: p for k, p in inspect.signature(func).parameters.items() if k not in ("self", "cls")
    }
    plain = [k for k, p in params.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    names = [n for n, _ in documented]
    problems = []
    if [n for n in names if n in plain] != plain or not set(names) <= set(params):
        problems.append(f"Parameters {names} but the signature is {list(params)}")
    for name, kind in documented:
        stated = re.search(r"\bdefault=(.+)$", kind)
        if not stated or name not in params:
            continue
        text, actual = stated.group(1).strip().rstrip("."), params[name].default
        try:
            value = eval(text, {"__builtins__": {}, "sqrt": math.sqrt, "inf": math.inf})
        except Exception:  # prose such as "4 MiB"
            continue
        if actual is inspect.Parameter.empty or not (value == actual or value is actual):
            problems.append(f"{name}: the docstring says default={text}, the code {actual!r}")
    return problems


def test_docstring_parameters_match_the_signatures():
    """Every public estimator, class, method and function: the numpydoc Parameters names are
    the signature's, in its order, and each ``default=`` stated is the real default (a
    renamed, added or re-defaulted parameter fails here until its docstring follows)."""
    from skewlearn._discovery import all_estimators

    drift = {n: ["no Parameters section"] for n, c in all_estimators().items()
             if not _documented_parameters(c.__doc__)}  # fmt: skip
    for name, func, doc in _public_callables():  # the estimators too: skewlearn.__all__
        if problems := _signature_drift(func, doc):
            drift[name] = problems
    assert not drift, drift


def _parameter_entries(doc: str | None) -> dict[str, str]:
    """Each documented parameter's type line and description, as one string."""
    out: dict[str, str] = {}
    names: list[str] = []
    for line in _doc_section(doc, "Parameters"):
        if line and not line[0].isspace():
            head, _, kind = line.partition(" : ")
            names = [n.strip() for n in head.split(",") if n.strip()]
            out.update(dict.fromkeys(names, kind))
        else:
            for n in names:
                out[n] += " " + line.strip()
    return out


def test_every_documented_parameter_says_what_it_does():
    """Session 23: ``help(AROW)`` showed ``pos_label : label, default=None`` and nothing
    more, as did 87 other parameters (``fit_intercept`` of 18 learners, ``loss``,
    ``variant``, ``path``, ``X`` of the inherited ``predict``...): a type line is not a
    description. Each entry of the Parameters section of a public callable, and of every
    method a public class inherits from skewlearn's bases, has a line of text under it."""
    import importlib
    import inspect

    docs = {name: doc for name, _func, doc in _public_callables()}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not inspect.isclass(obj):
                continue
            for attr in dir(obj):
                member = getattr(obj, attr, None)
                if attr.startswith("_") or not inspect.isfunction(member):
                    continue
                if member.__module__.startswith("skewlearn"):
                    docs.setdefault(member.__qualname__, member.__doc__)
    bare = []
    for name, doc in docs.items():
        lines = _doc_section(doc, "Parameters")
        for i, line in enumerate(lines):
            if not line or line[0].isspace():
                continue
            below = lines[i + 1] if i + 1 < len(lines) else ""
            if not (below[:1].isspace() and below.strip()):
                bare.append(f"{name}: {line.strip()}")
    assert not bare, bare


def test_every_documented_parameter_with_a_default_states_it():
    """Session 19: ``run_experiment``'s Parameters section (the Python entry of
    docs/experiments.md, called there with ``n_jobs=2``) described ``n_jobs`` without its
    default, -1 (all cores), as it did ``progress`` and ``repeats``; so did
    ``parse_grid`` and ``significance_markers`` for one parameter each. Every documented
    parameter of a public callable whose signature has a default now states it
    (``default=...`` or ``optional``), unless its entry is shared with another class's
    ("As in :class:`X`", whose defaults are the same)."""
    import inspect

    silent = []
    for name, func, doc in _public_callables():
        params = inspect.signature(func).parameters
        entries = _parameter_entries(doc)
        for param, kind in _documented_parameters(doc):
            p = params.get(param)
            if p is None or p.default is inspect.Parameter.empty:
                continue
            if "default" in kind or "optional" in kind:
                continue
            if re.search(r"[Aa]s in :(class|meth):", entries.get(param, "")):
                continue
            silent.append(f"{name}({param}={p.default!r})")
    assert not silent, silent


def test_every_string_option_of_a_parameter_is_documented():
    """Session 17 (the check probe J made once by hand, now kept): each estimator
    parameter has ``_parameter_constraints``, and every string its ``StrOptions`` accepts is
    named in its Parameters entry, or in the entry of the class it says it is "as in"
    (SVMSDC's kernel "As in :class:`SVMDEC`")."""
    import re

    from sklearn.utils._param_validation import StrOptions

    estimators = all_estimators()
    entries = {name: _parameter_entries(cls.__doc__) for name, cls in estimators.items()}
    missing = []
    for name, cls in estimators.items():
        constraints = cls._parameter_constraints
        for param, text in entries[name].items():
            if param not in constraints:
                missing.append(f"{name}.{param}: no _parameter_constraints entry")
                continue
            seen = {name}
            while (
                others := {
                    o for o in re.findall(r"[Aa]s in :class:`~?(?:skewlearn\.)?(\w+)`", text)
                }
                - seen
            ):  # follow "as in" chains (SVMSDC -> SVMDEC -> KernelASLS)
                seen |= others
                text += " " + " ".join(entries.get(o, {}).get(param, "") for o in sorted(others))
            for option in constraints[param]:
                if isinstance(option, StrOptions):
                    missing += [
                        f"{name}.{param}: {value!r}"
                        for value in sorted(option.options)
                        if f'"{value}"' not in text and f"``{value}``" not in text
                    ]
    assert not missing, missing


def test_every_estimator_has_an_example_that_runs_as_a_doctest():
    """STYLE.md: each public class has a small seeded example, run by --doctest-modules."""
    from skewlearn._discovery import all_estimators

    missing = [
        n
        for n, c in all_estimators().items()
        if not any(line.lstrip().startswith(">>> ") for line in _doc_section(c.__doc__, "Examples"))
    ]
    assert not missing


# --- command lines quoted in the docs --------------------------------------------------

#: The pages a user reads for the command line (decisions.md is history; benchmarks.md
#: and docs/results/ are generated by long runs and checked where they are generated).
USER_DOCS = ("README.md", "docs/guide.md", "docs/experiments.md", "docs/reliability.md")
#: Options of other programs that these pages quote: pip (README, Data) and dask
#: (experiments.md, section 3).
FOREIGN_OPTIONS = {"--no-deps", "--nworkers", "--nthreads"}
#: Placeholders of the prose that stand for a number.
PLACEHOLDERS = {"N": "2"}


def _quoted_command_lines(text: str) -> list[str]:
    """Every command line of a shell block, and every inline code span that is one (such a
    span may wrap across lines), with comments and ``&&``/``|`` chains split off."""
    import re

    lines = []
    for block in re.findall(r"```(?:bash|sh|shell)\n(.*?)```", text, re.S):
        lines += block.splitlines()
    lines += re.findall(r"`((?:skewlearn|python -m skewlearn)[^`]*)`", text)
    commands = []
    for line in lines:
        for part in re.split(r"&&|\||;", " ".join(line.split("#")[0].split())):
            if part.strip():
                commands.append(part.strip())
    return commands


def test_skewlearn_command_lines_in_the_docs_parse_and_name_real_models():
    """Each ``skewlearn ...`` line the user docs show parses with the real parser (options,
    choices, arity), and its ``--model``/``--models`` names are estimators."""
    import argparse
    import contextlib
    import io
    import shlex

    from skewlearn.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    known = {n.lower() for n in all_estimators()}
    failures, seen = [], 0
    for doc in USER_DOCS:
        for command in _quoted_command_lines((ROOT / doc).read_text(encoding="utf-8")):
            argv = [PLACEHOLDERS.get(word, word) for word in shlex.split(command)]
            if argv[0] != "skewlearn" or len(argv) == 1:
                continue
            seen += 1
            if len(argv) == 2 and argv[1] in sub.choices:  # prose naming a subcommand
                continue
            err = io.StringIO()
            try:
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    args = parser.parse_args(argv[1:])
            except SystemExit:
                failures.append((doc, command, err.getvalue().strip().splitlines()[-1:]))
                continue
            if args.command not in ("stream", "compare", "cv"):
                continue
            models = getattr(args, "models", None) or getattr(args, "model", None) or ""
            unknown = [m for m in models.split(",") if m not in ("", "...")
                       and m.lower() not in known]  # fmt: skip
            if unknown:
                failures.append((doc, command, f"unknown models {unknown}"))
    assert seen >= 15 and not failures, failures


def test_every_option_the_docs_name_exists():
    """Each ``--option`` written in the user docs is an option of ``skewlearn`` (some
    subcommand) or of a ``python -m skewlearn.experiments.X`` study the same page runs, or
    one of FOREIGN_OPTIONS. A renamed or removed option fails here until the docs follow."""
    import argparse
    import importlib
    import inspect
    import re

    from skewlearn.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    options = {o for p in sub.choices.values() for a in p._actions for o in a.option_strings}
    unknown = []
    for doc in USER_DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        studies = "".join(
            inspect.getsource(importlib.import_module(m))
            for m in set(re.findall(r"python -m (skewlearn\.experiments\.\w+)", text))
        )
        for option in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))):
            in_a_study = re.search(rf"[\"']{re.escape(option)}[\"']", studies)
            if option not in options | FOREIGN_OPTIONS and not in_a_study:
                unknown.append((doc, option))
    assert not unknown


def test_the_readme_names_every_estimator_by_its_class_name():
    """README's "What is in it" is where a user looks for a learner, and the command line
    takes class names (``Projectron++`` is not one; ``ProjectronPP`` is)."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [n for n in all_estimators() if not re.search(rf"\b{re.escape(n)}\b(?!\+)", text)]
    assert not missing


def test_experiment_file_examples_in_experiments_md_are_accepted(tmp_path):
    """docs/experiments.md's TOML: the whole example file, and each later snippet merged
    into it, pass the experiment parser, which refuses unknown keys and values (a renamed
    key or option fails here until the page follows). The snippet of options for large
    grids names datasets and an estimator of a larger file; those are added first."""
    import copy
    import re
    import textwrap
    import tomllib

    from skewlearn.experiments import parse_experiment

    def merged(a: dict, b: dict) -> dict:
        out = copy.deepcopy(a)
        for key, value in b.items():
            if isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key] = merged(out[key], value)
            elif key == "estimators":  # arrays of tables add up
                out[key] = out.get(key, []) + value
            else:
                out[key] = value
        return out

    text = (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    whole, *snippets = [tomllib.loads(textwrap.dedent(b)) for b in blocks]
    assert len(snippets) >= 4 and "estimators" in whole
    source = tmp_path / "my_experiment.toml"
    assert parse_experiment(whole, source=source).estimators
    larger = merged(whole, {"datasets": [*whole["datasets"], "phoneme", "kc1"]})
    larger = merged(larger, {"estimators": [{"name": "KOIL_RS++", "class": "KOIL",
                                             "grid": {"C": [1.0, 2.0]}}]})  # fmt: skip
    for snippet in snippets:
        base = larger if "cuts" in snippet else whole
        parse_experiment(merged(base, snippet), source=source)


def test_ci_runs_the_readme_test_command():
    """.ci/run says "keep identical to README.md Quickstart": the README's test command is
    the line CI runs, so the README's "(what CI runs)" stays true."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = next(line for line in readme.splitlines() if line.startswith("pip install -e "))
    marker = next(i for i, line in enumerate(ci) if "README test command" in line)
    assert ci[marker + 1] == command


def test_links_and_repository_paths_in_the_user_docs_exist():
    """Relative Markdown links, and the repository paths written in code spans
    (``src/...``, ``tests/...::test_name``, ``skewlearn/...py``, ``tools/...``), point at
    files (and test functions) that exist."""
    import re

    missing = []
    for doc in (*USER_DOCS, "docs/algorithms.md"):
        path = ROOT / doc
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if not target.startswith(("http://", "https://", "#", "mailto:")):
                if not (path.parent / target.split("#")[0]).exists():
                    missing.append((doc, target))
        spans = re.findall(r"`((?:src|tests|docs|tools|benchmarks|skewlearn)/[^`\s]+)`", text)
        for span in spans:
            file, _, test = span.partition("::")
            file = file.rstrip(".,;:")
            where = [ROOT / file, ROOT / "src" / file]
            found = next((p for p in where if p.exists()), None)
            if found is None:
                missing.append((doc, span))
            elif test and not re.search(rf"def {re.escape(test)}\b", found.read_text("utf-8")):
                missing.append((doc, span))
    assert not missing


def test_every_cli_option_with_a_default_states_it_in_its_help():
    """``skewlearn CMD --help`` shows each option's default: an option whose default is a
    value (not None, not an off switch) says ``default`` and the value in its help. Before
    session 19, ``--format`` (default ``table``) of every subcommand and ``--jobs`` of
    ``run`` and ``reproduce`` (default ``-1``, all cores, where ``cv --jobs`` defaults to
    1) did not say it."""
    import argparse

    from skewlearn.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    silent = []
    for command, parser in sub.choices.items():
        for action in parser._actions:
            default = action.default
            if not action.option_strings or default in (None, False, [], argparse.SUPPRESS):
                continue
            if isinstance(action, argparse._StoreTrueAction | argparse._HelpAction):
                continue
            text = " ".join((action.help or "").split())
            if "default" not in text or str(default) not in text.split("default", 1)[1]:
                silent.append((command, action.option_strings[0], default, text))
    assert not silent, silent


def test_every_metric_and_statistics_function_documents_its_parameters():
    """Session 19: the metric functions README.md lists (F1, G-mean, sensitivity,
    specificity, balanced accuracy, precision) and the significance tests (paired t-test,
    win/tie/loss, Friedman, Nemenyi) had no numpydoc Parameters section, so
    test_docstring_parameters_match_the_signatures had nothing to compare; nor had the
    ASLS loss helpers and ``nystroem_linear_svm``. Every public function of
    ``skewlearn.metrics``, ``skewlearn.evaluation.stats`` (and the methods of the stats'
    result classes) and ``skewlearn.batch`` now has one."""
    import importlib
    import inspect

    missing = []
    for module_name in ("skewlearn.metrics", "skewlearn.evaluation.stats", "skewlearn.batch"):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            members = [(name, obj)] if inspect.isfunction(obj) else []
            if inspect.isclass(obj) and module_name.endswith("stats"):
                members += [(f"{name}.{a}", m) for a, m in vars(obj).items()
                            if inspect.isfunction(m) and not a.startswith("_")]  # fmt: skip
            for qualname, func in members:
                params = [p for p in inspect.signature(func).parameters if p != "self"]
                if params and not _documented_parameters(func.__doc__):
                    missing.append(f"{module_name}.{qualname}")
    assert not missing, missing


def test_every_study_option_with_a_default_states_it_in_its_help(monkeypatch):
    """The ``python -m skewlearn.experiments.X`` study commands the docs quote: each option
    whose default is a value says ``default`` and the value in ``--help``. Before session
    19 most said nothing: ``koil_figures`` wrote its PNG files to
    ``docs/results/figures`` and ``omcsl_study`` its summary to ``omcsl_study.md`` and
    ``figures/`` of the current folder unless told, and ``--repeats``, ``--datasets``,
    ``--landmarks``, ... hid the values the run would use."""
    import argparse
    import importlib

    class Parsed(Exception):
        pass

    def capture(self, args=None, namespace=None):
        raise Parsed(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", capture)
    monkeypatch.setenv("COLUMNS", "1000")  # no wrapping ("page-\nblocks0")
    silent = []
    for name in ("koil_figures", "nystrom_figures", "omcsl_study"):
        module = importlib.import_module(f"skewlearn.experiments.{name}")
        try:
            module.main([])
        except Parsed as done:
            parser = done.args[0]
        else:  # pragma: no cover
            raise AssertionError(f"{name}.main did not parse its arguments")
        help_text = " ".join(parser.format_help().split())
        for action in parser._actions:
            default = action.default
            if not action.option_strings or default in (None, False, argparse.SUPPRESS):
                continue
            if isinstance(action, argparse._HelpAction):
                continue
            shown = " ".join(map(str, default)) if isinstance(default, list) else str(default)
            if f"default: {shown})" not in help_text:
                silent.append((name, action.option_strings[0], shown))
    assert not silent, silent


def test_algorithms_md_keeps_the_line_breaks_of_a_cases_equation():
    """A ``cases`` equation's rows are separated by LaTeX's ``\\\\``. The generator halved
    every ``\\\\`` to ``\\`` (a control space), so NAROW's r_t, the truncated gradient's g_i
    and the Projectron's update each read as one run-on row in docs/algorithms.md. (Such
    rules are now shown whole in a math block below the table, session 20.)"""
    text = (ROOT / "docs" / "algorithms.md").read_text(encoding="utf-8")
    blocks = {
        m.group(1): m.group(2)
        for m in re.finditer(r"(?m)^### (\w+)\n\n```math\n(.*?)^```", text, re.S)
    }
    assert "\\chi_t > 1/b \\\\\n" in blocks["NAROW"]
    assert "i \\bmod K = 0\\\\ 0" in blocks["TruncatedGradient"]
    for name, block in blocks.items():
        if "\\begin{cases}" in block:
            cases = block.split("\\begin{cases}")[1].split("\\end{cases}")[0]
            assert re.search(r"(?<!\\)\\\\(?![\\|])", cases), name  # not a norm's \\|


def test_algorithms_md_states_the_update_of_cost_sensitive_ogd():
    """The rule column shows a docstring's first equation; CostSensitiveOGD's was the
    definition of rho, so the table stated no update for it (session 20)."""
    row = next(
        line
        for line in (ROOT / "docs" / "algorithms.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `CostSensitiveOGD` |")
    )
    assert r"w_{t+1} = w_t + \lambda_t\, y_t x_t" in row
    assert r"w_{t+1} = w_t + \lambda_t \rho_{y_t} y_t x_t" in row


def test_the_docs_name_every_learner_that_keeps_its_rows_dense(monkeypatch):
    """Session 27: the README ("The kernel learners copy the rows they keep as support
    vectors into a dense buffer ...") and the guide's memory pitfall ("Kernel learners
    keep their support vectors dense") named the kernel learners only; OAM, a linear AUC
    learner the guide recommends, keeps 200 rows dense too (1.5 GiB, and ~4 ms a row, at
    10⁶ sparse features). Every learner whose buffer-size warning fires (its limit set to
    0 here) is a kernel learner (skewlearn.kernel) or is named in both sentences."""
    import warnings

    import numpy as np
    import scipy.sparse as sp

    from skewlearn.kernel import budget

    monkeypatch.setattr(budget, "LARGE_BUFFER", -1)
    X = sp.random(60, 40, density=0.1, format="csr", random_state=0)
    y = np.arange(60) % 5 == 0
    dense = set()
    for name, cls in all_estimators().items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                cls().fit(X, y)
            except TypeError:  # the dense-only batch learners
                continue
        if any("stored dense" in str(w.message) for w in caught):
            dense.add(name)
    kernel = {n for n in dense if all_estimators()[n].__module__.startswith("skewlearn.kernel")}
    assert {"KOIL", "NORMA", "OAM"} <= dense and len(kernel) >= 6
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    guide = " ".join((ROOT / "docs" / "guide.md").read_text(encoding="utf-8").split())
    (in_readme,) = re.findall(r"\(The kernel learners[^)]*into a dense buffer", readme)
    (in_guide,) = re.findall(r"- Kernel learners[^.]*dense[^.]*\.", guide)
    for sentence in (in_readme, in_guide):
        assert all(re.search(rf"`?\b{n}\b", sentence) for n in dense - kernel), sentence
