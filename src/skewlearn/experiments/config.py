"""Experiment definitions: a TOML file read with :mod:`tomllib` and validated up front.

A file names the datasets, the estimators (class, fixed parameters, grid), the protocol,
the metrics and the seed; see docs/experiments.md for the full format. Every error names
the key path that is wrong (``estimators[2].grid.C``) and what would be right.

Example::

    name = "demo"
    seed = 0
    metrics = ["roc_auc", "gmean"]
    datasets = ["sonar", "heart"]  # registry names or files ...
    reference = ["Perceptron"]

    # ... or, instead of the list, [[datasets]] tables, e.g. a scikit-learn generator:
    [[datasets]]
    name = "toy"
    generator = "make_classification"
    params = {n_samples = 300, weights = [0.9], random_state = 0}

    [protocol]
    kind = "kfold"        # "kfold", "split" or "prequential"
    n_splits = 5
    n_repeats = 4

    [search]              # nested search, used by estimators with a grid
    metric = "roc_auc"
    inner_splits = 5

    [[estimators]]
    name = "PA-I"
    class = "PassiveAggressive"
    params = {variant = "pa1"}
    grid = {C = "2^[-10:10]"}
    # per-dataset changes: params/grid entries replace the common ones there; skip drops it
    by_dataset.heart = {params = {variant = "pa2"}, grid = {C = [0.1, 1.0]}}
    by_dataset.sonar = {skip = true}
"""

from __future__ import annotations

import importlib
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from .._files import user_path
from .._hints import did_you_mean
from ..evaluation.protocols import METRICS, KFold, Prequential, RandomSplits, parse_grid

if TYPE_CHECKING:
    from .._typing import StrPath

__all__ = [
    "DatasetSpec",
    "EstimatorSpec",
    "Experiment",
    "ExperimentError",
    "PaperTable",
    "load_experiment",
    "parse_experiment",
    "resolve_estimator",
]

#: Directory of the published paper tables shipped with the package.
PAPER_RESULTS = Path(__file__).parent / "paper_results"


class ExperimentError(ValueError):
    """An experiment definition is invalid; the message names the key path."""


@dataclass(frozen=True)
class DatasetSpec:
    """One dataset: a registry name or file (``source``), or a scikit-learn generator."""

    name: str
    source: str | None = None
    generator: str | None = None
    params: dict = field(default_factory=dict)
    #: False, True (the loader's default: standard for registry names and files, min-max
    #: for generators), "standard" or "minmax" (the same for every kind of dataset).
    scale: bool | str = False
    #: A data file's content digest (BLAKE2b), set when a run starts
    #: (:func:`~skewlearn.experiments.runner.run_experiment`): part of every task key, so
    #: results of a file's earlier contents are not taken for the new ones.
    digest: str | None = None
    #: A data file's absolute path, set when a run starts: the workers (Dask's, started
    #: in another directory) read the file the run checked. Not part of the task keys.
    path: str | None = None

    def as_dict(self) -> dict:
        out = {
            "name": self.name,
            "source": self.source,
            "generator": self.generator,
            "params": self.params,
            "scale": self.scale,
        }
        if self.digest is not None:  # (registered and generated sets keep their keys)
            out["digest"] = self.digest
        return out


@dataclass(frozen=True)
class EstimatorSpec:
    """One compared method: a label, the estimator class path, fixed params and a grid.

    ``by_dataset`` holds per-dataset changes, ``{dataset: {"params": {...}, "grid": {...},
    "skip": bool}}``: the params and grid entries replace the common ones of the same name
    on that dataset; ``skip`` leaves the method out there. :meth:`for_dataset` applies them.
    """

    name: str
    cls: str
    params: dict = field(default_factory=dict)
    grid: dict = field(default_factory=dict)
    #: Name of another estimator whose search chooses this one's parameters too
    #: (``search.scope = "first_fold"`` only), e.g. KOIL's RS, FIFO, FIFO++ and infinite
    #: budgets with the C and gamma chosen for RS++, as in the KOIL authors' scripts.
    search_from: str | None = None
    #: Per-dataset changes: ``{dataset: {"params": ..., "grid": ..., "skip": bool}}``.
    by_dataset: dict = field(default_factory=dict)
    #: This estimator's search metric, in place of ``search.metric`` (e.g. one method run
    #: three times, each tuned for the table column it fills: F-measure, AUROC, AUPRC).
    search_metric: str | None = None

    def as_dict(self) -> dict:
        out = {"name": self.name, "class": self.cls, "params": self.params, "grid": self.grid}
        # each key absent when unused: the task keys of older files stay the same
        if self.search_from is not None:
            out["search_from"] = self.search_from
        if self.by_dataset:
            out["by_dataset"] = self.by_dataset
        if self.search_metric is not None:
            out["search_metric"] = self.search_metric
        return out

    def for_dataset(self, dataset: str) -> EstimatorSpec | None:
        """The spec to run on ``dataset`` (per-dataset changes applied, ``by_dataset``
        emptied), or ``None`` when the method skips that dataset."""
        change = self.by_dataset.get(dataset, {})
        if change.get("skip", False):
            return None
        params, grid = _per_dataset(self.params, self.grid, change)
        return EstimatorSpec(
            name=self.name,
            cls=self.cls,
            params=params,
            grid=grid,
            search_from=self.search_from,
            search_metric=self.search_metric,
        )

    def build(self) -> Any:
        """A fresh estimator with the fixed parameters."""
        return resolve_estimator(self.cls)(**self.params)


def _per_dataset(params: dict, grid: dict, change: Mapping) -> tuple[dict, dict]:
    """The params and grid on one dataset: its ``change`` replaces the common entries of
    the same name, whether they were fixed or searched (a per-dataset ``params.C`` fixes a
    commonly searched ``C`` there, a per-dataset ``grid.C`` searches a commonly fixed one)."""
    ds_params, ds_grid = change.get("params", {}), change.get("grid", {})
    params = {k: v for k, v in params.items() if k not in ds_grid}
    grid = {k: v for k, v in grid.items() if k not in ds_params}
    return {**params, **ds_params}, {**grid, **ds_grid}


@dataclass(frozen=True)
class PaperTable:
    """Published numbers to print beside ours.

    ``layout="wide"``: one row per dataset, a column per method (``<method>_std`` for the
    std); ``layout="long"``: columns ``dataset``, ``method``, ``<column>``, ``<column>_std``.
    ``scale`` multiplies the paper's numbers onto our scale (0.01 for percentages).
    ``methods`` / ``datasets`` map our names to the paper's where they differ.
    """

    path: Path
    metric: str
    layout: str = "wide"
    column: str | None = None
    scale: float = 1.0
    methods: dict = field(default_factory=dict)
    datasets: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Experiment:
    """A validated experiment definition."""

    name: str
    seed: int
    datasets: tuple[DatasetSpec, ...]
    estimators: tuple[EstimatorSpec, ...]
    protocol: KFold | RandomSplits | Prequential
    metrics: tuple[str, ...]
    search_metric: str
    inner_splits: int
    reference: tuple[str, ...]
    curves: bool
    paper: PaperTable | None
    description: str = ""
    source: Path | None = None
    #: ``"every_fold"``: a nested search on every outer training part (the default);
    #: ``"first_fold"``: one search per (dataset, estimator) on the training part of
    #: repetition 0, fold 0, its choice used for every run (a named cut of the protocol).
    search_scope: str = "every_fold"
    #: Named cuts from a paper's protocol, printed with every report of the experiment.
    cuts: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        """A JSON-able description (stored in the results database)."""
        p = self.protocol
        return {
            "name": self.name,
            "description": self.description,
            "seed": self.seed,
            "datasets": [d.as_dict() for d in self.datasets],
            "estimators": [e.as_dict() for e in self.estimators],
            "protocol": {"kind": _KIND_OF[type(p)], **p.__dict__},
            "metrics": list(self.metrics),
            "search": {
                "metric": self.search_metric,
                "inner_splits": self.inner_splits,
                "scope": self.search_scope,
            },
            "cuts": list(self.cuts),
            "reference": list(self.reference),
            "curves": self.curves,
            "paper": None
            if self.paper is None
            else {
                "path": str(self.paper.path),
                "metric": self.paper.metric,
                "layout": self.paper.layout,
                "column": self.paper.column,
                "scale": self.paper.scale,
                "methods": self.paper.methods,
                "datasets": self.paper.datasets,
            },
        }


_PROTOCOLS = {"kfold": KFold, "split": RandomSplits, "prequential": Prequential}
_KIND_OF = {v: k for k, v in _PROTOCOLS.items()}
_TOP_KEYS = {
    "name",
    "description",
    "seed",
    "datasets",
    "estimators",
    "protocol",
    "metrics",
    "search",
    "reference",
    "curves",
    "paper",
    "scale",
    "cuts",
}
#: Values of ``search.scope``.
SEARCH_SCOPES = ("every_fold", "first_fold")


def resolve_estimator(name: str) -> type:
    """The estimator class called ``name``: a skewlearn estimator's class name, or a dotted
    path ``package.module.Class`` (e.g. ``sklearn.linear_model.LogisticRegression``)."""
    from .._discovery import all_estimators

    found = all_estimators()
    if not isinstance(name, str):
        raise ExperimentError(
            f"must be an estimator class name (a string such as 'Perceptron'); got "
            f"{type(name).__name__} {name!r}."
        )
    if name in found:
        return found[name]
    if "." in name:
        module, _, attr = name.rpartition(".")
        try:
            obj = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as err:
            raise ExperimentError(f"cannot import estimator class {name!r}: {err}") from err
        if isinstance(obj, type):
            if not (hasattr(obj, "fit") and hasattr(obj, "get_params")):
                raise ExperimentError(
                    f"{name!r} is a class but not a scikit-learn estimator (it has no fit and "
                    "get_params); give an estimator class."
                )
            return obj
    raise ExperimentError(
        f"unknown estimator {name!r}.{did_you_mean(name, found)} Give a skewlearn estimator "
        f"({', '.join(found)}) or a "
        "dotted class path such as 'sklearn.linear_model.LogisticRegression'."
    )


def _fail(path: str, msg: str) -> NoReturn:
    raise ExperimentError(f"{path}: {msg}")


def _check_keys(table: Mapping, allowed: set[str], path: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        _fail(path, f"unknown key(s) {unknown}; allowed: {sorted(allowed)}.")


#: Accepted string values of ``scale`` (besides true / false).
SCALES = ("standard", "minmax")


def _strings(value: Any, path: str, what: str) -> list[str]:
    """``value`` as a list of strings (one string is a list of one), or an error."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        _fail(path, f"must be a list of strings, {what}; got {value!r}.")
    return list(value)


def _table(value: Any, path: str, what: str = "a table {key = value, ...}") -> dict:
    """``value`` as a dict, or an error naming where a table was expected."""
    if not isinstance(value, Mapping):
        _fail(path, f"expected {what}; got {type(value).__name__} {value!r}.")
    return dict(value)


def _registered_or_file(source: str, path: str) -> None:
    """A bare dataset name must be a registered one (or an existing file): caught here,
    not as one failed task per fold and method."""
    import os

    from ..datasets import list_datasets

    names = list_datasets()
    if source in names or os.sep in source or "/" in source or os.path.exists(user_path(source)):
        return
    _fail(
        path,
        f"{source!r} is neither a registered dataset nor a file."
        f"{did_you_mean(source, names)} `skewlearn datasets` "
        "lists the names; a file needs its path (with a '/').",
    )


def _file_params(source: str, params: dict, path: str) -> None:
    """A data file's ``params`` are its reading options (and ``positive_class``); a
    registered dataset has none."""
    from ..datasets import list_datasets
    from ..datasets.readers import _read_options

    if source in list_datasets():
        _fail(
            path,
            f"{source!r} is a registered dataset whose positive class and reading settings "
            "are fixed; params apply to generators and data files only. Remove params.",
        )
    try:
        allowed = ["positive_class", *_read_options(source, params.get("format"))]
    except ValueError as exc:
        _fail(path, str(exc).replace("Pass format=", "Set format ="))
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        hint = (
            ""
            if "format" in params
            else ' The format comes from the extension; set format (e.g. format = "csv") '
            "if the file is not in that format."
        )
        _fail(
            path,
            f"unknown option(s) {unknown} for the data file {source!r}; its options are "
            f"{allowed}.{hint}",
        )


def _generator_params(generator: str, params: dict, path: str) -> None:
    import inspect

    import sklearn.datasets

    sig = inspect.signature(getattr(sklearn.datasets, generator))
    valid = set(sig.parameters)
    unknown = sorted(set(params) - valid)
    if unknown:
        _fail(
            f"{path}.params",
            f"{generator} has no parameter(s) {unknown}; its parameters are {sorted(valid)}.",
        )
    if "random_state" in valid and "random_state" not in params:
        # without it every load draws new data: each worker process, each resumed run
        _fail(
            f"{path}.params.random_state",
            f"missing: without it {generator} draws new data every time the dataset is "
            "loaded (in each worker process, in each resumed run), so the tasks would not "
            "see the same rows and the results would not repeat. Set it, e.g. "
            "params = {..., random_state = 0}.",
        )


def _scale_value(value: Any, path: str) -> bool | str:
    if isinstance(value, bool) or value in SCALES:
        return value
    _fail(path, f"must be true, false, 'standard' or 'minmax'; got {value!r}.")


def _dataset(item: Any, i: int, scale: bool | str) -> DatasetSpec:
    path = f"datasets[{i}]"
    if isinstance(item, str):
        _registered_or_file(item, path)
        return DatasetSpec(name=Path(item).stem if "/" in item else item, source=item, scale=scale)
    if not isinstance(item, Mapping):
        _fail(path, f"expected a name or a table, got {type(item).__name__}.")
    _check_keys(item, {"name", "source", "path", "generator", "params", "scale"}, path)
    if "name" not in item:
        _fail(path, "a dataset table needs a 'name'.")
    generator = item.get("generator")
    params = _table(item.get("params", {}), f"{path}.params")
    if generator is not None:
        import sklearn.datasets

        if (
            not isinstance(generator, str)
            or not generator.startswith("make_")
            or not hasattr(sklearn.datasets, generator)
        ):
            _fail(
                f"{path}.generator",
                f"{generator!r} is not a scikit-learn generator; use e.g. 'make_classification'.",
            )
        _generator_params(generator, params, path)
    source = item.get("source", item.get("path"))
    if generator is None and source is None:
        source = item["name"]
    if generator is None:
        if not isinstance(source, str):
            _fail(f"{path}.source", f"must be a dataset name or a file path; got {source!r}.")
        _registered_or_file(source, f"{path}.source")
        if params:
            _file_params(source, params, f"{path}.params")
    return DatasetSpec(
        name=str(item["name"]),
        source=source,
        generator=generator,
        params=params,
        scale=_scale_value(item.get("scale", scale), f"{path}.scale"),
    )


def _estimator(item: Any, i: int) -> EstimatorSpec:
    path = f"estimators[{i}]"
    if not isinstance(item, Mapping):
        _fail(path, "each estimator is a table with 'class' (and 'name', 'params', 'grid').")
    _check_keys(
        item,
        {"name", "class", "params", "grid", "search_from", "by_dataset", "search_metric"},
        path,
    )
    if "class" not in item:
        _fail(path, "missing 'class' (an estimator class name, e.g. 'Perceptron').")
    try:
        cls = resolve_estimator(item["class"])
    except ExperimentError as err:
        _fail(f"{path}.class", str(err))
    params = _table(item.get("params", {}), f"{path}.params")
    grid = _table(item.get("grid", {}), f"{path}.grid")
    try:
        valid = set(cls().get_params())
    except TypeError:
        valid = set(cls(**params).get_params())
    _check_params(cls, valid, params, grid, path)
    _check_values(cls, params, grid, path)
    _check_classifier(cls, params, path)
    by_dataset = {}
    changes = item.get("by_dataset", {})
    if not isinstance(changes, Mapping):
        _fail(f"{path}.by_dataset", "expected a table {dataset = {params, grid, skip}}.")
    for ds, change in changes.items():
        where = f"{path}.by_dataset.{ds}"
        if not isinstance(change, Mapping):
            _fail(where, "expected a table with 'params', 'grid' and/or 'skip'.")
        _check_keys(change, {"params", "grid", "skip"}, where)
        if not isinstance(change.get("skip", False), bool):
            _fail(f"{where}.skip", f"must be true or false; got {change['skip']!r}.")
        ds_params = _table(change.get("params", {}), f"{where}.params")
        ds_grid = _table(change.get("grid", {}), f"{where}.grid")
        _check_params(cls, valid, ds_params, ds_grid, where)  # (parses ds_grid's ranges)
        parsed = {"params": ds_params, "grid": ds_grid}  # not the file's unparsed "2^[a:b]"
        _check_values(cls, *_per_dataset(params, grid, parsed), where)
        by_dataset[str(ds)] = {"params": ds_params, "grid": ds_grid,
                               "skip": bool(change.get("skip", False))}  # fmt: skip
    search_from = item.get("search_from")
    if search_from is not None:
        if not isinstance(search_from, str):
            _fail(f"{path}.search_from", f"must be an estimator name; got {search_from!r}.")
        if grid:
            _fail(
                f"{path}.grid",
                "an estimator with 'search_from' takes its searched parameters from that "
                "estimator; remove its own grid (or remove 'search_from').",
            )
    search_metric = item.get("search_metric")
    if search_metric is not None:
        search_metric = _metric(search_metric, f"{path}.search_metric")
        if search_from is not None:
            _fail(
                f"{path}.search_metric",
                "an estimator with 'search_from' takes the parameters that estimator's "
                "search chose; set 'search_metric' there (or remove 'search_from').",
            )
        # a metric with nothing to search by it changed nothing, yet the report said the
        # estimator was "searched by its own metric" (the grids are parsed lists here)
        grids = [grid] + [
            _per_dataset(params, grid, change)[1]
            for change in by_dataset.values()
            if not change["skip"]
        ]
        if not any(len(values) > 1 for g in grids for values in g.values()):
            name = str(item.get("name", item["class"]))
            _fail(
                f"{path}.search_metric",
                f"{name} has no grid of more than one value (here or under by_dataset), so "
                f"nothing is searched by {search_metric!r}. Add a grid, or remove "
                "search_metric.",
            )
    return EstimatorSpec(name=str(item.get("name", item["class"])), cls=item["class"],
                         params=params, grid=grid, search_from=search_from,
                         by_dataset=by_dataset, search_metric=search_metric)  # fmt: skip


def _check_params(cls: type, valid: set, params: dict, grid: dict, path: str) -> None:
    """Every key a parameter of ``cls``, none both fixed and searched; the grid's ranges
    parsed in place."""
    both = sorted(set(params) & set(grid))
    if both:
        _fail(
            f"{path}.grid.{both[0]}",
            f"{both[0]!r} is in both params and grid; a parameter is either fixed or "
            "searched: remove it from one of them.",
        )
    for where, keys in (("params", params), ("grid", grid)):
        for k in keys:
            if k not in valid:
                _fail(
                    f"{path}.{where}.{k}",
                    f"{cls.__name__} has no parameter {k!r}; its parameters are {sorted(valid)}.",
                )
    for k, v in grid.items():
        try:
            grid[k] = parse_grid(v, name=f"{path}.grid.{k}")
        except ValueError as err:
            raise ExperimentError(str(err)) from err
    _check_pos_label(cls, params, grid, path)


def _check_classifier(cls: type, params: dict, path: str) -> None:
    """A binary classifier that gives scores to rank by: a regressor or a clusterer (any
    class with fit and get_params passes :func:`resolve_estimator`) stopped the run with an
    AttributeError traceback in its first task."""
    from sklearn.base import is_classifier

    est = cls(**params)
    if not is_classifier(est):
        _fail(
            f"{path}.class",
            f"{cls.__name__} is not a classifier (scikit-learn's is_classifier is false), and "
            "experiments compare binary classifiers; give a classifier class, e.g. "
            "'sklearn.linear_model.LogisticRegression'.",
        )
    if not (hasattr(est, "decision_function") or hasattr(est, "predict_proba")):
        _fail(
            f"{path}.class",
            f"{cls.__name__} has neither decision_function nor predict_proba, so it gives no "
            "scores for roc_auc, pr_auc or the curves; give a classifier that has one (or set "
            "its parameters so that it does, e.g. probability = true for SVC).",
        )


def _check_pos_label(cls: type, params: dict, grid: dict, path: str) -> None:
    """The runner hands learners the labels +1 (the dataset's positive class) and -1, so a
    ``pos_label`` other than 1, -1 or None would make every task fail with "not one of the
    classes [-1, 1]" (or, for -1, is a deliberate swap): refuse it before the run and name
    the dataset setting that chooses the positive class."""
    values = [("params", params["pos_label"])] if "pos_label" in params else []
    values += [("grid", v) for v in grid.get("pos_label", [])]
    for where, value in values:
        if value in (None, 1, -1):  # as the command line's --param pos_label
            continue
        _fail(
            f"{path}.{where}.pos_label",
            f"{value!r}: experiments give {cls.__name__} the labels +1 (each dataset's "
            "positive class: the minority class, or a data file's params.positive_class) "
            "and -1 (the others), so pos_label can only be 1, -1 or left out. To make a "
            f"file's label {value!r} positive, set positive_class = {value!r} in that "
            "dataset's params.",
        )


def _check_values(cls: type, params: dict, grid: dict, path: str) -> None:
    """Each fixed value, and each grid value with the fixed ones, passes the estimator's
    own parameter validation (scikit-learn's ``_parameter_constraints``): a ``C = -1``
    is refused here, not as a failed task per fold (or a silently skipped grid point)."""
    try:
        est = cls(**params)
    except (TypeError, ValueError) as err:
        _fail(f"{path}.params", f"{cls.__name__} refuses these parameters: {err}")
    check = getattr(est, "_validate_params", None)
    # scikit-learn's BaseEstimator has _validate_params for every subclass, but it reads
    # _parameter_constraints, which a class of another library or your own need not have
    # (xgboost's and LightGBM's wrappers do not): such a class is not checked here
    if check is None or not hasattr(est, "_parameter_constraints"):
        return
    cases = [(f"{path}.params", {})]
    cases += [(f"{path}.grid.{k}", {k: v}) for k, values in grid.items() for v in values]
    for where, change in cases:
        try:
            est.set_params(**params, **change)
            check()
        except ValueError as err:  # InvalidParameterError is a ValueError
            _fail(where, str(err))


def _protocol(table: Any):
    if not isinstance(table, Mapping):
        _fail("protocol", "expected a table such as [protocol] kind = 'kfold'.")
    kind = table.get("kind", "kfold")
    if not isinstance(kind, str) or kind not in _PROTOCOLS:
        _fail("protocol.kind", f"{kind!r} is not one of {sorted(_PROTOCOLS)}.")
    cls = _PROTOCOLS[kind]
    fields = set(cls.__dataclass_fields__)
    _check_keys(table, fields | {"kind"}, "protocol")
    kwargs = {k: v for k, v in table.items() if k != "kind"}
    for k in ("n_splits", "n_repeats", "checkpoints"):
        v = kwargs.get(k)
        if k in kwargs and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
            _fail(f"protocol.{k}", f"must be a positive integer; got {v!r}.")
    if kind == "kfold" and kwargs.get("n_splits", 5) < 2:
        _fail("protocol.n_splits", f"needs at least 2 folds; got {kwargs['n_splits']}.")
    if "test_size" in kwargs:
        v = kwargs["test_size"]
        if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v < 1:
            _fail("protocol.test_size", f"must be a fraction in (0, 1); got {v!r}.")
    for k in ("stratified", "shuffle"):
        if k in kwargs and not isinstance(kwargs[k], bool):
            _fail(f"protocol.{k}", f"must be true or false; got {kwargs[k]!r}.")
    return cls(**kwargs)


def _metric(name: Any, path: str) -> str:
    if name not in METRICS:
        _fail(
            path,
            f"unknown metric {name!r}.{did_you_mean(name, METRICS)} Choose one of "
            f"{', '.join(METRICS)}.",
        )
    return name


def _paper(table: Any, base: Path | None, metrics: tuple[str, ...]) -> PaperTable:
    if not isinstance(table, Mapping):
        _fail("paper", "expected a table with 'table' and 'metric'.")
    _check_keys(table, {"table", "metric", "layout", "column", "scale", "methods", "datasets"},
                "paper")  # fmt: skip
    if "table" not in table:
        _fail("paper.table", "missing: the CSV file of the paper's numbers.")
    name = table["table"]
    if not isinstance(name, str):
        _fail("paper.table", f"must be the CSV file's name or path; got {name!r}.")
    candidates = [Path(name), PAPER_RESULTS / name]
    if base is not None:
        candidates.insert(0, base / name)
    found = next((p.resolve() for p in candidates if p.is_file()), None)
    if found is None:
        _fail(
            "paper.table",
            f"{name!r} not found next to the experiment file or among the shipped tables "
            f"({', '.join(sorted(p.name for p in PAPER_RESULTS.glob('*.csv')))}).",
        )
    metric = _metric(table.get("metric", metrics[0]), "paper.metric")
    if metric not in metrics:  # the report prints the paper's numbers beside that table only
        _fail(
            "paper.metric",
            f"{metric!r} is not one of this experiment's metrics {list(metrics)}, so the "
            "paper's numbers would be shown nowhere; add it to metrics or change paper.metric.",
        )
    layout = table.get("layout", "wide")
    if layout not in ("wide", "long"):
        _fail("paper.layout", f"must be 'wide' or 'long'; got {layout!r}.")
    if layout == "long" and "column" not in table:
        _fail("paper.column", "a 'long' table needs the column holding the metric.")
    column = table.get("column")
    if column is not None and not isinstance(column, str):
        _fail("paper.column", f"must be a column name; got {column!r}.")
    import csv

    from .report import paper_table_missing

    with open(found, newline="", encoding="utf-8-sig") as fh:
        header = next(csv.reader(line for line in fh if not line.startswith("#")), [])
    missing = paper_table_missing(header, {"layout": layout, "column": column})
    if missing:
        _fail(
            "paper.table",
            f"{found.name} lacks the column(s) {missing}; a {layout!r} table needs "
            + ("'dataset' and one column per method" if layout == "wide"
               else "'dataset', 'method' and the metric's column")
            + ".",
        )  # fmt: skip
    scale = table.get("scale", 1.0)
    if (
        isinstance(scale, bool)
        or not isinstance(scale, int | float)
        or not (math.isfinite(scale) and scale > 0)
    ):
        _fail("paper.scale", f"must be a positive number (0.01 for percentages); got {scale!r}.")
    names = {}
    for key in ("methods", "datasets"):
        names[key] = _table(table.get(key, {}), f"paper.{key}", "a table {ours = 'paper's'}")
        for ours, theirs in names[key].items():
            if not isinstance(theirs, str):
                _fail(
                    f"paper.{key}.{ours}", f"must be the paper's name (a string); got {theirs!r}."
                )
    return PaperTable(
        path=found,
        metric=metric,
        layout=layout,
        column=column,
        scale=float(scale),
        methods=names["methods"],
        datasets=names["datasets"],
    )


def parse_experiment(data: Mapping[str, Any], *, source: Path | None = None) -> Experiment:
    """Validate a parsed TOML document and build the :class:`Experiment`."""
    _check_keys(data, _TOP_KEYS, "<top level>")
    if "name" not in data:
        _fail("name", "missing: every experiment needs a name (it keys the results).")
    if not isinstance(data["name"], str) or not data["name"].strip():
        _fail("name", f"must be a non-empty string; got {data['name']!r}.")
    if not isinstance(data.get("description", ""), str):
        _fail("description", "must be a string.")
    for key in ("datasets", "estimators"):
        if not data.get(key):
            _fail(key, "missing or empty.")
        if not isinstance(data[key], list):
            what = (  # (each estimator is a table: a list of names is no example)
                '(e.g. datasets = ["pima"] or [[datasets]] tables)'
                if key == "datasets"
                else "of [[estimators]] tables (each with class = 'Perceptron' or another "
                "estimator class)"
            )
            _fail(key, f"must be a list {what}; got {type(data[key]).__name__} {data[key]!r}.")
    if not isinstance(data.get("curves", True), bool):
        _fail("curves", f"must be true or false; got {data['curves']!r}.")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        _fail("seed", f"must be a non-negative integer; got {seed!r}.")
    scale = _scale_value(data.get("scale", False), "scale")
    datasets = tuple(_dataset(d, i, scale) for i, d in enumerate(data["datasets"]))
    names = [d.name for d in datasets]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        _fail(
            "datasets",
            f"dataset names must be unique; got {names}: {twice!r} twice. A file in the "
            "list is named after its file name without the extension; give the datasets "
            'as [[datasets]] tables with distinct names (name = "...", source = "...").',
        )
    estimators = tuple(_estimator(e, i) for i, e in enumerate(data["estimators"]))
    labels = [e.name for e in estimators]
    if len(set(labels)) != len(labels):
        twice = next(n for n in labels if labels.count(n) > 1)
        _fail(
            "estimators",
            f"estimator names must be unique; got {labels}: {twice!r} twice. The name "
            'defaults to the class; give each [[estimators]] table its own name = "...".',
        )
    for i, e in enumerate(estimators):
        for ds in e.by_dataset:
            if ds not in names:
                _fail(
                    f"estimators[{i}].by_dataset.{ds}",
                    f"{ds!r} is not a dataset of this experiment; choose among {names}.",
                )
    metrics = data.get("metrics", ["roc_auc"])
    if not isinstance(metrics, list | tuple) or not metrics:
        _fail(
            "metrics",
            f'must be a non-empty list of metric names (e.g. metrics = ["roc_auc"]); got '
            f"{type(metrics).__name__} {metrics!r}.",
        )
    metrics = tuple(_metric(m, f"metrics[{i}]") for i, m in enumerate(metrics))
    for i, m in enumerate(metrics):
        if metrics.index(m) != i:  # the report would show its section twice
            _fail(f"metrics[{i}]", f"{m!r} is already metrics[{metrics.index(m)}]; name each "
                  "metric once.")  # fmt: skip
    search = _table(data.get("search", {}), "search", "a table [search]")
    _check_keys(search, {"metric", "inner_splits", "scope"}, "search")
    scope = search.get("scope", "every_fold")
    if scope not in SEARCH_SCOPES:
        _fail("search.scope", f"{scope!r} is not one of {list(SEARCH_SCOPES)}.")
    search_metric = _metric(search.get("metric", metrics[0]), "search.metric")
    inner = search.get("inner_splits", 5)
    if not isinstance(inner, int) or isinstance(inner, bool) or inner < 2:
        _fail("search.inner_splits", f"must be an integer >= 2; got {inner!r}.")
    protocol = _protocol(data.get("protocol", {}))
    if isinstance(protocol, Prequential):
        for i, e in enumerate(estimators):
            grids = [e.grid, *(c["grid"] for c in e.by_dataset.values())]
            if any(len(v) > 1 for g in grids for v in g.values()):
                _fail(
                    f"estimators[{i}].grid",
                    "the prequential protocol has no training part to search on; give "
                    "fixed params, or use the 'kfold' / 'split' protocol.",
                )
    _check_search_from(estimators, labels, scope, protocol, names)
    if isinstance(protocol, Prequential):
        for i, e in enumerate(estimators):
            if not hasattr(resolve_estimator(e.cls), "test_then_train"):
                _fail(
                    f"estimators[{i}].class",
                    f"{e.cls} has no test_then_train method, so it cannot run the "
                    "prequential protocol; use an online skewlearn learner, or the 'kfold' / "
                    "'split' protocol for batch learners.",
                )
    cuts = data.get("cuts", [])
    if not isinstance(cuts, list | tuple) or not all(isinstance(c, str) for c in cuts):
        _fail("cuts", "must be a list of strings, one per cut from the paper's protocol.")
    reference = _strings(data.get("reference", [labels[0]]), "reference", "estimator names")
    for i, r in enumerate(reference):
        if r not in labels:
            _fail(f"reference[{i}]", f"{r!r} is not an estimator name; choose among {labels}.")
    base = source.parent if source is not None else None
    paper = _paper(data["paper"], base, metrics) if "paper" in data else None
    for key, ours, what in (("methods", labels, "estimator"), ("datasets", names, "dataset")):
        for name in getattr(paper, key, {}):  # a typo left the paper's column out, silently
            if name not in ours:
                _fail(
                    f"paper.{key}.{name}",
                    f"{name!r} is not a{'n' * (what == 'estimator')} {what} name of this "
                    f"experiment; the keys are ours (choose among {ours}), the values the "
                    "paper's.",
                )
    return Experiment(
        name=str(data["name"]),
        description=str(data.get("description", "")),
        seed=seed,
        datasets=datasets,
        estimators=estimators,
        protocol=protocol,
        metrics=metrics,
        search_metric=search_metric,
        inner_splits=inner,
        reference=tuple(reference),
        curves=bool(data.get("curves", True)),
        paper=paper,
        source=source,
        search_scope=scope,
        cuts=tuple(cuts),
    )


def _check_search_from(estimators, labels, scope, protocol, datasets=()) -> None:
    by_name = {e.name: e for e in estimators}
    for i, e in enumerate(estimators):
        if e.search_from is None:
            continue
        path = f"estimators[{i}].search_from"
        if scope != "first_fold":
            _fail(path, "needs search.scope = 'first_fold' (one search per dataset to share).")
        src = by_name.get(e.search_from)
        if src is None:
            _fail(path, f"{e.search_from!r} is not an estimator name; choose among {labels}.")
        if src.search_from is not None or not src.grid:
            _fail(path, f"{e.search_from!r} must have a grid of its own (and no search_from).")
        valid = set(resolve_estimator(e.cls)(**e.params).get_params())
        missing = sorted(set(src.grid) - valid)
        if missing:
            _fail(path, f"{e.cls} has no parameter(s) {missing} searched by {e.search_from!r}.")
        for ds in datasets:
            mine, theirs = e.for_dataset(ds), src.for_dataset(ds)
            if mine is None:
                continue
            if theirs is None or all(len(v) < 2 for v in theirs.grid.values()):
                # no search there to borrow: the values must be this estimator's own
                unset = sorted(
                    (set(src.grid) | set(getattr(theirs, "grid", {}))) - set(mine.params)
                )
                if unset:
                    why = "skips it" if theirs is None else "has a single candidate there"
                    _fail(
                        path,
                        f"{e.search_from!r} {why}, so no search on {ds!r} chooses {unset} "
                        f"for {e.name!r}, which would run there with its class defaults. Fix "
                        f"them with by_dataset.{ds}.params, or leave {ds!r} out "
                        f"(by_dataset.{ds} = {{skip = true}}).",
                    )
                continue
            # a fixed value the shared search's choice would replace
            both = sorted(set(theirs.grid) & set(mine.params))
            if both:
                where = "params" if both[0] in e.params else f"by_dataset.{ds}.params"
                _fail(
                    f"estimators[{i}].{where}.{both[0]}",
                    f"{both[0]!r} is fixed here but searched by {e.search_from!r}, whose "
                    f"choice would replace it (on {ds!r}) without a word: remove it from "
                    "params to take the searched value, or remove 'search_from' to keep it.",
                )
    if scope == "first_fold" and isinstance(protocol, Prequential):
        _fail("search.scope", "'first_fold' needs a 'kfold' or 'split' protocol.")


def load_experiment(path: StrPath) -> Experiment:
    """Read and validate an experiment TOML file (a path, or the name of a shipped one; a
    leading ``~`` is the home folder)."""
    p = Path(user_path(path))
    if not p.is_file():
        shipped = Path(__file__).parent / "configs" / f"{path}.toml"
        if shipped.is_file():
            p = shipped
        else:
            raise FileNotFoundError(
                f"experiment file {str(path)!r} not found (nor a shipped reproduction of that "
                "name; `skewlearn reproduce` lists them)."
            )
    try:
        data = tomllib.loads(read_toml_text(p))
    except tomllib.TOMLDecodeError as err:
        raise ExperimentError(f"{p}: not valid TOML: {err}") from err
    return parse_experiment(data, source=p.resolve())


def read_toml_text(path: str | Path) -> str:
    """The text of a TOML file, decoded as UTF-8 (the TOML specification's encoding,
    whatever the locale's; a leading byte-order mark, which some editors write, is
    dropped).

    Raises
    ------
    ExperimentError
        When the bytes are not UTF-8, naming the file and the first bad byte.
    """
    raw = Path(user_path(path)).read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ExperimentError(
            f"{path}: not UTF-8 (byte {raw[err.start]:#04x} at offset {err.start}); TOML "
            "files are UTF-8: save the file with that encoding."
        ) from None
