"""skewlearn: online and kernel learning for class-imbalanced data.

Every learner is a scikit-learn binary classifier (the Nyström maps are transformers);
online learners add ``partial_fit`` and ``test_then_train`` (score each row before learning
from it).

Names are imported on first use (PEP 562): ``import skewlearn`` loads neither
scikit-learn nor numba, and ``from skewlearn import PassiveAggressive`` imports only the
online linear learners (with scikit-learn and numba), not the kernel, ensemble or batch
modules. ``skewlearn.__all__`` (and ``from skewlearn import *``) imports every family.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a type checker sees the real names (else every one is Any); run time
    # imports them on first use, below. From the modules, whose ``__all__`` are lists of
    # names: mypy reads a family's ``[*module.__all__, ...]`` as empty. tests/typing checks
    # that these are the families' modules and a user's code against them.
    from . import auc as auc
    from . import batch as batch
    from . import cli as cli
    from . import compat as compat
    from . import datasets as datasets
    from . import ensemble as ensemble
    from . import evaluation as evaluation
    from . import experiments as experiments
    from . import kernel as kernel
    from . import linear as linear
    from . import metrics as metrics
    from .auc.oam import *  # noqa: F403
    from .auc.opauc import *  # noqa: F403
    from .batch.asls import *  # noqa: F403
    from .batch.mkl import *  # noqa: F403
    from .batch.nystrom import *  # noqa: F403
    from .ensemble.baselines import *  # noqa: F403
    from .ensemble.omcsl import *  # noqa: F403
    from .kernel.koil import *  # noqa: F403
    from .kernel.norma import *  # noqa: F403
    from .kernel.perceptrons import *  # noqa: F403
    from .linear.cost_sensitive import *  # noqa: F403
    from .linear.first_order import *  # noqa: F403
    from .linear.second_order import *  # noqa: F403
    from .linear.sparse import *  # noqa: F403

#: Subpackages whose ``__all__`` make up :mod:`skewlearn`'s public estimators and functions.
_FAMILIES = ("linear", "auc", "kernel", "ensemble", "batch")

#: Other subpackages, importable as attributes (``skewlearn.datasets``).
_SUBPACKAGES = (*_FAMILIES, "datasets", "metrics", "evaluation", "experiments", "compat", "cli")

#: Fast path: public name -> family. A name missing here (added to a family later) is still
#: found, by importing every family (``_find``); tests/perf/test_lazy_imports.py checks the map.
_NAMES = {
    "linear": "ALMA OGD ROMMA PassiveAggressive Perceptron AROW CW IELLIP NAROW NHERD SCW SOP "
    "OFS TruncatedGradient CostSensitiveOGD CostSensitivePA",
    "auc": "OAM OPAUC",
    "kernel": "KOIL RBP Forgetron KernelPerceptron Projectron ProjectronPP NORMA",
    "ensemble": "OMCSL SelectionTrace OFO OOB UOB",
    "batch": "SVMDEC SVMSDC KernelASLS LinearASLS ProximalSVMDEC asls_loss asls_targets sls_loss "
    "sls_targets squared_ramp_loss MultiNystroem StratifiedNystroem nystroem_linear_svm "
    "MultiNystroemMKL SimpleMKL",
}
_WHERE = {name: fam for fam, names in _NAMES.items() for name in names.split()}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("skewlearn")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


def _all() -> list[str]:
    names: list[str] = []
    for fam in _FAMILIES:
        names.extend(importlib.import_module(f".{fam}", __name__).__all__)
    return [*names, "__version__"]


def _find(name: str) -> Any:
    fam = _WHERE.get(name)
    if fam is not None:
        return getattr(importlib.import_module(f".{fam}", __name__), name)
    for fam in _FAMILIES:
        mod = importlib.import_module(f".{fam}", __name__)
        if name in mod.__all__:
            return getattr(mod, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name == "__all__":
        value = _all()
    elif name in _SUBPACKAGES:
        value = importlib.import_module(f".{name}", __name__)
    elif name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    else:
        value = _find(name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE, *_SUBPACKAGES, "__all__", "__version__"})
