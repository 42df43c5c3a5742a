"""skewlearn under ``python -OO`` (``PYTHONOPTIMIZE=2``), which strips docstrings.

Session 21 (mypy: ``Item "None" of "str | None" has no attribute "replace"``): the learners
whose docstrings share text filled it in with ``Cls.__doc__.replace(...)`` at import, so
under -OO importing the AUC, kernel and second-order learners raised AttributeError, and
the experiment commands' argparse descriptions (``__doc__.splitlines()[0]``) failed too.
"""

from __future__ import annotations

import skewlearn
from skewlearn.auc import OAM
from skewlearn.kernel import KOIL, KernelPerceptron
from skewlearn.linear import AROW

from .test_determinism import json_from_subprocess

SCRIPT = """
import contextlib, io, json
import numpy as np
import skewlearn
from skewlearn.experiments import asls_results, cli, nystrom_figures, omcsl_study

X = np.random.default_rng(0).normal(size=(40, 3))
y = (X[:, 0] > 0.5).astype(int)
fitted = []
for name in ["OAM", "OPAUC", "KOIL", "NORMA", "Projectron", "AROW", "SCW"]:
    getattr(skewlearn, name)().fit(X, y)
    fitted.append(name)
helps = []
for main in (cli.main, asls_results.main):
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):
        main(["--help"])
    helps.append(out.getvalue().startswith("usage:"))
print(json.dumps({"names": len(skewlearn.__all__), "fitted": fitted, "doc": skewlearn.AROW.__doc__,
                  "helps": helps}))
"""


def test_imports_and_learns_with_docstrings_stripped():
    out = json_from_subprocess(SCRIPT, "skewlearn under PYTHONOPTIMIZE=2", PYTHONOPTIMIZE="2")
    assert out["doc"] is None  # -OO took effect
    assert out["names"] == len(skewlearn.__all__)
    assert out["fitted"] == ["OAM", "OPAUC", "KOIL", "NORMA", "Projectron", "AROW", "SCW"]
    assert out["helps"] == [True, True]


def test_shared_docstring_text_is_still_filled_in():
    for cls, fields in [
        (OAM, ["threshold"]),
        (KOIL, ["kernel", "threshold"]),
        (KernelPerceptron, ["kernel"]),
        (AROW, ["covariance", "attributes"]),
    ]:
        assert cls.__doc__ is not None
        assert not [f for f in fields if "{" + f + "}" in cls.__doc__], cls.__name__
        assert "Parameters" in cls.__doc__
