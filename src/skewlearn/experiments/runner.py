"""Run an experiment: expand it into tasks, farm them out, store each result.

A task is (dataset, estimator with its parameters and grid, repetition, fold, seed). Tasks
go to local processes through :class:`joblib.Parallel` (loky) by default, or, when a
scheduler is given (``scheduler=`` an address or a ``distributed.Client``, or the
``DASK_SCHEDULER_ADDRESS`` environment variable), to a Dask cluster's workers as one future
each (every worker thread takes tasks; ``n_jobs`` is then not used). Results stream back
unordered and the parent writes each one to the results database at once, so a killed run
resumes where it stopped. Each worker process loads a dataset once and keeps it for its later tasks.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import numbers
import os
import platform
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._files import user_path
from ..evaluation.protocols import (
    KFold,
    Prequential,
    RandomSplits,
    evaluate_split,
    nested_search,
    prequential_run,
    task_seed,
)
from .config import DatasetSpec, EstimatorSpec, Experiment, load_experiment
from .store import ResultStore

if TYPE_CHECKING:
    import scipy.sparse as sp
    from distributed import Client

__all__ = [
    "SearchTask",
    "Task",
    "TasksCancelled",
    "expand_search_tasks",
    "expand_tasks",
    "load_dataset",
    "run_experiment",
    "run_search",
    "run_task",
]


@dataclass(frozen=True)
class Task:
    """One unit of work; everything a worker needs, nothing it must look up."""

    experiment: str
    dataset: DatasetSpec
    estimator: EstimatorSpec
    protocol: Any
    repetition: int
    fold: int
    seed: int
    metrics: tuple[str, ...]
    search_metric: str
    inner_splits: int
    curves: bool
    #: Set when the estimator's parameters were fixed by a shared search (the key of
    #: that search's definition is then part of this task's key).
    tuned_by: str | None = None

    @property
    def key(self) -> str:
        """A stable key of the task's whole definition (a changed grid is a new task)."""
        spec: dict[str, Any] = {
            "experiment": self.experiment,
            "dataset": self.dataset.as_dict(),
            "estimator": self.estimator.as_dict(),
            "protocol": [type(self.protocol).__name__, self.protocol.__dict__],
            "repetition": self.repetition,
            "fold": self.fold,
            "seed": self.seed,
            "metrics": self.metrics,
            "search": [self.search_metric, self.inner_splits],
            "curves": self.curves,
        }
        if self.tuned_by is not None:
            spec["tuned_by"] = self.tuned_by
        text = json.dumps(spec, sort_keys=True, default=str)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class SearchTask:
    """One hyperparameter search shared by every run of a (dataset, estimator)
    (``search.scope = "first_fold"``): the nested search on the training part of
    repetition 0, fold 0."""

    experiment: str
    dataset: DatasetSpec
    estimator: EstimatorSpec
    protocol: Any
    seed: int
    search_metric: str
    inner_splits: int

    @property
    def key(self) -> str:
        """A stable key of the search's whole definition."""
        spec = {
            "kind": "first_fold_search",
            "experiment": self.experiment,
            "dataset": self.dataset.as_dict(),
            "estimator": self.estimator.as_dict(),
            "protocol": [type(self.protocol).__name__, self.protocol.__dict__],
            "seed": self.seed,
            "search": [self.search_metric, self.inner_splits],
        }
        text = json.dumps(spec, sort_keys=True, default=str)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class TasksCancelled(RuntimeError):
    """The Dask cluster cancelled the run's tasks (``client.restart()``, a scheduler
    restart, the connection to the scheduler lost, or another client cancelling them), or
    the connection broke while a result was fetched; the finished tasks are saved and a
    re-run resumes."""


def _needs_search(est: EstimatorSpec) -> bool:
    return est.search_from is None and any(len(v) > 1 for v in est.grid.values())


def _results(fn, tasks, n_jobs: int | None, client) -> Iterator[dict]:
    """``fn(task)`` for every task, in completion order: joblib (``n_jobs`` local
    processes) without a Dask client; with one, a future per task on the cluster's
    workers, however many threads they have (joblib's dask backend runs everything in
    this process when the cluster has a single thread)."""
    if client is None:
        from joblib import Parallel, delayed

        yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)(
            delayed(fn)(t) for t in tasks
        )
        return
    from concurrent.futures import CancelledError

    from distributed import KilledWorker, as_completed
    from distributed.comm import CommClosedError

    def stopped(what: str, err: Exception) -> TasksCancelled:
        return TasksCancelled(
            f"{what} ({' '.join(str(err).split()) or 'no reason given'}); every task that "
            "finished before is in the results database: run the same command again to "
            "resume."
        )

    tasks = list(tasks)
    futures = client.map(fn, tasks, pure=False)
    task_of = {f.key: t for f, t in zip(futures, tasks)}
    try:
        for future in as_completed(futures):
            try:
                row = future.result()
            except CancelledError as err:  # distributed's FutureCancelledError
                raise stopped("the Dask cluster cancelled this run's tasks", err) from err
            except CommClosedError as err:  # the scheduler gone while a result was fetched
                raise stopped("lost the connection to the Dask scheduler", err) from err
            except KilledWorker as err:  # its process died on every try: a crash, memory
                _name_task(err, task_of[future.key])  # (the message has Dask's key only)
                raise
            yield row
            future.release()
    finally:  # an interrupted run leaves nothing queued on the cluster
        client.cancel(futures)


def expand_search_tasks(exp: Experiment) -> list[SearchTask]:
    """The shared searches of a ``search.scope = "first_fold"`` experiment (none
    otherwise): one per dataset and estimator with more than one candidate."""
    if exp.search_scope != "first_fold":
        return []
    return [
        SearchTask(
            experiment=exp.name,
            dataset=ds,
            estimator=est,
            protocol=exp.protocol,
            seed=exp.seed,
            search_metric=est.search_metric or exp.search_metric,
            inner_splits=exp.inner_splits,
        )
        for ds in exp.datasets
        for est in (common.for_dataset(ds.name) for common in exp.estimators)
        if est is not None and _needs_search(est)
    ]


def _tuned(est: EstimatorSpec, params: dict) -> EstimatorSpec:
    """``est`` with its grid collapsed to the chosen point (a one-candidate grid, so the
    task fits it directly and records the values as its parameters)."""
    return EstimatorSpec(
        name=est.name,
        cls=est.cls,
        params=est.params,
        grid={k: [v] for k, v in sorted(params.items())},
        search_from=est.search_from,
        search_metric=est.search_metric,
    )


def expand_tasks(exp: Experiment, searches: dict | None = None) -> list[Task]:
    """Every task of an experiment, datasets outermost (so a worker reuses its data).

    With ``search.scope = "first_fold"``, ``searches`` maps ``(dataset, estimator name)``
    to ``(search key, chosen params)`` of :func:`expand_search_tasks`' searches; each task
    then fits those parameters (estimators with ``search_from`` take the named
    estimator's). Without it, tasks are listed with their grids (for counting).
    """
    tasks = []
    for ds in exp.datasets:
        for rep in range(exp.protocol.n_repeats):
            for fold in range(exp.protocol.n_folds):
                for common in exp.estimators:
                    est = common.for_dataset(ds.name)  # per-dataset params/grid, or skip
                    if est is None:
                        continue
                    tuned_by = None
                    source = est.search_from or est.name
                    if searches is not None and (ds.name, source) in searches:
                        tuned_by, chosen = searches[ds.name, source]
                        est = _tuned(est, chosen)
                    tasks.append(
                        Task(
                            experiment=exp.name,
                            dataset=ds,
                            estimator=est,
                            protocol=exp.protocol,
                            repetition=rep,
                            fold=fold,
                            seed=exp.seed,
                            metrics=exp.metrics,
                            search_metric=est.search_metric or exp.search_metric,
                            inner_splits=exp.inner_splits,
                            curves=exp.curves,
                            tuned_by=tuned_by,
                        )
                    )
    return tasks


# --------------------------------------------------------------------------- data
#: Per-process cache of loaded datasets: a worker loads each dataset once.
_DATASETS: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _minority_positive(y) -> np.ndarray:
    """``y`` as ±1 with the minority label +1; on a tie the larger label (``classes_[1]``),
    the rule of :func:`skewlearn.datasets.load` for a file."""
    values, counts = np.unique(y, return_counts=True)
    if len(values) != 2:
        raise ValueError(f"a dataset must have two classes; got {len(values)}: {values}.")
    minority = values[1] if counts[0] == counts[1] else values[np.argmin(counts)]
    return np.where(y == minority, 1, -1)


def _dataset_key(spec: DatasetSpec) -> str:
    """The in-process cache key of a dataset: its spec and, for a data file, the file's
    absolute path, size and modification time (a relative ``d.csv`` read from another
    directory, or the file rewritten, is another dataset)."""
    key = json.dumps(spec.as_dict(), sort_keys=True)
    source = None if spec.source is None else user_path(spec.path or spec.source)
    if spec.generator is None and source is not None and os.path.isfile(source):
        st = os.stat(source)
        key += f"|{os.path.abspath(source)}|{st.st_size}|{st.st_mtime_ns}"
    return key


def _path_here(spec: DatasetSpec) -> str:
    """The path this process reads a data file from: the absolute path the run checked
    (:func:`_check_datasets`), else (a Dask worker on another machine) a source not given
    as an absolute path, read from this process's directory (or home, for ``~``) as before
    session 24, if that file holds the contents the run hashed. Without either: a
    ``FileNotFoundError`` naming the path every worker needs."""
    source = cast(str, spec.source)  # a file's spec (a generator's has no source)
    if spec.path is None or os.path.exists(spec.path):
        return spec.path or source
    here = user_path(source)
    copy = not os.path.isabs(source) and os.path.isfile(here)
    if copy and (spec.digest is None or file_digest(here) == spec.digest):
        return here
    msg = (
        f"{spec.path}: no such file here (host {socket.gethostname()}), where the run "
        "checked it: on a Dask cluster every worker needs the file at this path (a shared "
        "file system)"
    )
    if not os.path.isabs(source):  # ("~/x.csv": the worker's home folder)
        where = "" if source.startswith("~") else " in the directory it was started in"
        msg += f", or a copy with the same contents at {source}{where}"
    if copy:
        msg += f" ({os.path.abspath(here)} holds other contents than the file the run checked)"
    raise FileNotFoundError(msg + ".")


def load_dataset(spec: DatasetSpec) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray]:
    """``(X, y)`` of a dataset spec (X sparse for a LIBSVM file), y in {-1, +1} with the
    minority class +1 (or, for a data file, its ``positive_class`` param); cached."""
    key = _dataset_key(spec)
    if key in _DATASETS:
        return _DATASETS[key]
    if spec.generator is not None:
        import sklearn.datasets

        X, y = getattr(sklearn.datasets, spec.generator)(**spec.params)
        y = _minority_positive(y)
        if spec.scale == "standard":
            from sklearn.preprocessing import StandardScaler

            X = StandardScaler().fit_transform(X)
        elif spec.scale:  # True or "minmax"
            from sklearn.preprocessing import MinMaxScaler

            X = MinMaxScaler().fit_transform(X)
    else:
        from .. import datasets

        if not hasattr(datasets, "load"):
            raise RuntimeError(
                f"dataset {spec.name!r} needs skewlearn.datasets.load, which this build lacks; "
                "use a generator dataset instead."
            )
        source = _path_here(spec)
        try:
            X, y, _meta = datasets.load(source, scale=spec.scale, **spec.params)
        except FileNotFoundError as exc:
            if os.path.isabs(source):
                raise
            # a file next to the experiment file is not found from another directory
            raise FileNotFoundError(
                f"{exc} A relative source is read from the directory the run started in "
                f"({os.getcwd()}), not the experiment file's: run from the directory it is "
                "relative to, or give an absolute path."
            ) from exc
        y = np.asarray(y)
    _DATASETS[key] = (X, y)
    return X, y


def _input_for(est, X):
    """``X`` in a layout ``est`` takes: a LIBSVM file loads as a sparse matrix, which the
    dense-only learners (KernelASLS, ProximalSVMDEC, SimpleMKL, ...: their scikit-learn
    tags say so) refuse with a TypeError; they get a dense copy. Sparse-capable learners
    get ``X`` unchanged."""
    import scipy.sparse as sp

    if not sp.issparse(X):
        return X
    from sklearn.utils import get_tags

    try:
        sparse_ok = get_tags(est).input_tags.sparse
    except Exception:  # not a scikit-learn estimator with tags: leave X as it is
        return X
    return X if sparse_ok else X.toarray()


# --------------------------------------------------------------------------- one task
def _versions() -> dict[str, str]:
    import sklearn

    import skewlearn

    return {
        "skewlearn_version": skewlearn.__version__,
        "numpy_version": np.__version__,
        "sklearn_version": sklearn.__version__,
        "python_version": platform.python_version(),
    }


def run_search(task: SearchTask) -> dict[str, Any]:
    """Run one shared search and return its ``searches`` row (called in the worker).

    The candidates are scored by the nested search of :func:`evaluate_split` on the
    training part of repetition 0, fold 0 (the same split, row order and seeds as that
    task), so ``search.scope = "first_fold"`` and ``"every_fold"`` choose the same
    parameters for that run.
    """
    t0, c0 = time.perf_counter(), time.process_time()
    X, y = load_dataset(task.dataset)
    seed = task_seed(task.seed, task.dataset.name, 0, 0)
    est = task.estimator.build()
    if "random_state" in est.get_params() and "random_state" not in task.estimator.params:
        est.set_params(random_state=seed)
    X = _input_for(est, X)
    train, _test = task.protocol.split(y, task.seed, task.dataset.name, 0, 0)
    _, params, search = nested_search(
        est,
        task.estimator.grid,
        X[train],
        y[train],
        metric=task.search_metric,
        inner_splits=task.inner_splits,
        seed=seed,
    )
    return {
        "search_key": task.key,
        "experiment": task.experiment,
        "dataset": task.dataset.name,
        "method": task.estimator.name,
        "params": params,
        "extra": {"search": search, "n_train": len(train)},
        "wall_time": time.perf_counter() - t0,
        "cpu_time": time.process_time() - c0,
        **_provenance(),
    }


def run_task(task: Task) -> dict[str, Any]:
    """Run one task and return its database row (called in the worker)."""
    t0, c0 = time.perf_counter(), time.process_time()
    X, y = load_dataset(task.dataset)
    identity = _task_identity(task)
    seed = identity["seed"]
    est = task.estimator.build()
    if "random_state" in est.get_params() and "random_state" not in task.estimator.params:
        est.set_params(random_state=seed)
    X = _input_for(est, X)
    extra: dict[str, Any] = {}
    if isinstance(task.protocol, Prequential):
        order = task.protocol.order(len(y), task.seed, task.dataset.name, task.repetition)
        params = {k: v[0] for k, v in task.estimator.grid.items()}
        est.set_params(**params)
        out = prequential_run(
            est, X, y, task.metrics, order=order, checkpoints=task.protocol.checkpoints
        )
        extra["stream"] = out["stream"]
    else:
        train, test = task.protocol.split(
            y, task.seed, task.dataset.name, task.repetition, task.fold
        )
        try:
            out = evaluate_split(
                est,
                X,
                y,
                train,
                test,
                task.metrics,
                grid=task.estimator.grid,
                search_metric=task.search_metric,
                inner_splits=task.inner_splits,
                seed=seed,
                curves=task.curves,
            )
        except ValueError as exc:
            cause = _one_class_test(task, y, test)
            if cause is None:
                raise
            raise ValueError(f"{cause} ({' '.join(str(exc).split())})") from exc
        params = out["params"]
        if "search" in out:
            extra["search"] = out["search"]
        if out.get("curves"):
            extra["curves"] = out["curves"]
    if task.tuned_by is not None:
        extra["tuned_by"] = task.tuned_by
    extra["cpu_time"] = time.process_time() - c0
    return {
        **identity,
        "params": params,
        "metrics": out["metrics"],
        "extra": extra,
        "fit_time": out["fit_time"],
        "score_time": out["score_time"],
        "wall_time": time.perf_counter() - t0,
        **_versions(),
        **_provenance(),
    }


def _one_class_test(task: Task, y, test) -> str | None:
    """Why a task's metrics failed when its test part holds one class: the protocol's
    setting that caused it (a fold per positive row at most), or None otherwise. The
    metric's own message ("evaluate on data with both classes") does not say which
    setting, and a re-run fails the same way."""
    held = np.unique(y[test])
    if len(held) != 1:
        return None
    _, counts = np.unique(y, return_counts=True)
    smaller = int(counts.min()) if len(counts) > 1 else 0
    lacking = "negative" if held[0] == 1 else "positive"
    text = (
        f"the test part of dataset {task.dataset.name} (repetition {task.repetition}, fold "
        f"{task.fold}) holds no {lacking} row: "
    )
    proto = task.protocol
    if isinstance(proto, KFold) and smaller < 2:
        # no n_splits (>= 2) puts a row of the class in every test fold: advising
        # "n_splits <= 1" named a setting the experiment file refuses
        return (
            f"{text}{task.dataset.name} has {smaller} row of its smaller class, and k-fold "
            "cross-validation needs at least 2 (one per test fold, n_splits >= 2). Use a "
            "dataset with more rows of that class; a re-run fails the same way."
        )
    if isinstance(proto, KFold) and proto.stratified and smaller < proto.n_splits:
        fix = f"fewer than protocol.n_splits = {proto.n_splits}. Use n_splits <= {smaller}"
    elif isinstance(proto, KFold) and not proto.stratified:
        fix = "and protocol.stratified = false lets a fold miss a class. Use stratified = true"
        if smaller < proto.n_splits:
            fix += f" with n_splits <= {smaller}"
    elif isinstance(proto, RandomSplits) and not proto.stratified:
        # as for k-fold: an unstratified draw can miss a class that stratifying would not
        fix = (
            "and protocol.stratified = false lets the test part miss a class. Use stratified = true"
        )
        if smaller * proto.test_size < 1:
            fix += " with a larger test_size"
    elif isinstance(proto, RandomSplits):
        fix = f"too few for protocol.test_size = {proto.test_size}. Use a larger test_size"
    else:
        return None
    return (
        f"{text}{task.dataset.name} has {smaller} rows of its smaller class, {fix} (or more "
        "data); a re-run fails the same way."
    )


def _task_identity(task: Task) -> dict[str, Any]:
    """The columns that name a task in the results and failures tables."""
    return {
        "task_key": task.key,
        "experiment": task.experiment,
        "dataset": task.dataset.name,
        "method": task.estimator.name,
        "repetition": task.repetition,
        "fold": task.fold,
        "seed": task_seed(task.seed, task.dataset.name, task.repetition, task.fold),
    }


def _provenance() -> dict[str, str]:
    return {
        "host": f"{socket.gethostname()}:{os.getpid()}",
        "finished_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }


def run_task_or_failure(task: Task) -> dict[str, Any]:
    """:func:`run_task`, or a failure row when the learner refuses the data.

    A ``ValueError`` from the task (the library's way of saying "this data, these settings":
    an overflow on unscaled features, one class in a training part, ...) becomes
    ``{"failed": True, "error": "<type>: <message>", ...}`` so that one diverging method
    does not stop a run of hundreds of tasks; any other exception is a bug and propagates.
    """
    try:
        return run_task(task)
    except ValueError as exc:
        return {"failed": True, **_task_identity(task), "error": _one_line(exc), **_provenance()}
    except Exception as exc:  # a bug: it stops the run, saying which task raised it
        _name_task(exc, task)
        raise


def run_search_or_failure(task: SearchTask) -> dict[str, Any]:
    """:func:`run_search`, or a failure row when the search raised a ``ValueError``: every
    candidate failed (scikit-learn's ``All the ... fits failed``), or the refit of the
    chosen one did (the learner's own error, e.g. an overflow).

    The row goes to the ``failures`` table under the search's key (repetition 0, fold 0:
    the split the search runs on), and the tasks that would use the search are not run:
    running them with their untuned grid would silently change the protocol.
    """
    try:
        return run_search(task)
    except Exception as exc:
        if not isinstance(exc, ValueError):  # a bug: it stops the run, naming the search
            _name_task(exc, task)
            raise
        return {
            "failed": True,
            "task_key": task.key,
            "experiment": task.experiment,
            "dataset": task.dataset.name,
            "method": task.estimator.name,
            "repetition": 0,
            "fold": 0,
            "seed": task_seed(task.seed, task.dataset.name, 0, 0),
            "error": "the shared hyperparameter search failed, so no task of this method "
            f"on this dataset ran: {_one_line(exc)}",
            **_provenance(),
        }


def _name_task(exc: Exception, task: Task | SearchTask) -> None:
    """Add a note naming ``task`` to an exception that stops the run: it is raised again in
    the parent (from a worker process, after the other tasks' tracebacks are gone), where
    nothing else says which dataset, method, repetition and fold raised it. The note
    travels with the exception through joblib and Dask (it is pickled with it)."""
    if isinstance(task, SearchTask):
        where = "the shared hyperparameter search (repetition 0, fold 0)"
    else:
        where = f"repetition {task.repetition}, fold {task.fold}"
    exc.add_note(
        f"skewlearn: raised by the task of experiment {task.experiment!r}: method "
        f"{task.estimator.name!r} ({task.estimator.cls}) on dataset {task.dataset.name!r}, "
        f"{where} (task key {task.key})."
    )


def _one_line(exc: Exception) -> str:
    """``"<type>: <message>"`` on one line (the failures table's ``error``)."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


#: ``(absolute path, size, mtime_ns) -> BLAKE2b digest`` of data files hashed here.
_DIGESTS: dict[tuple[str, int, int], str] = {}


def file_digest(path: str) -> str:
    """BLAKE2b (128-bit) digest of a file's bytes, read in 1 MiB blocks (about 1 s per
    GB); remembered for the same path, size and modification time."""
    path = user_path(path)
    st = os.stat(path)
    ident = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    if ident not in _DIGESTS:
        from .._files import hash_file

        _DIGESTS[ident] = hash_file(path, hashlib.blake2b(digest_size=16))
    return _DIGESTS[ident]


def _check_datasets(exp: Experiment, keep: bool) -> Experiment:
    """Read every data file and make every generated dataset once, before any task: a bad
    reading option or generator value (``label_column = "nope"``, ``n_samples = -1``)
    failed every task alike, each recorded as a failure, instead of stopping the run at
    the start. Registered datasets are fixed and skipped. ``keep``: leave the arrays in
    this process's cache (the tasks run here).

    Returns ``exp`` with each data file's content digest in its spec, so the task keys
    change with the file's contents (a resumed run does not mix results of the old and
    the new file), and its absolute path, which the workers read (a Dask worker started
    in another directory would not find a relative one)."""
    import dataclasses
    import re

    from ..datasets import list_datasets
    from .config import ExperimentError

    registered = set(list_datasets())
    specs = []
    for i, spec in enumerate(exp.datasets):
        if spec.generator is None and spec.source in registered:
            specs.append(spec)
            continue
        key = _dataset_key(spec)
        cached = key in _DATASETS
        try:
            data = load_dataset(spec)
        except (ValueError, TypeError) as exc:
            what = "generating it" if spec.generator else f"reading {spec.source}"
            msg = re.sub(r"\bPass (\w+)=", r"Set \1 =", " ".join(str(exc).split()))
            raise ExperimentError(
                f"datasets[{i}] ({spec.name}): {what} failed, so no task was run: {msg} "
                f"(a {'generator' if spec.generator else 'file'} option goes in the "
                "dataset's params.)"
            ) from None
        if not cached:
            del _DATASETS[key]
        if spec.generator is None:  # the path the workers read (a relative one is ours)
            # joined, not abspath: its text rule drops "link/.." where the system follows
            # the link first, so the workers would read another file than the one checked
            source = cast(str, spec.source)
            path = os.path.join(os.getcwd(), user_path(source))
            spec = dataclasses.replace(spec, digest=file_digest(source), path=path)
        if keep:  # under the key the tasks look for
            _DATASETS[_dataset_key(spec)] = data
        specs.append(spec)
    return dataclasses.replace(exp, datasets=tuple(specs))


# --------------------------------------------------------------------------- the run
WORKER_TIMEOUT = 60  # seconds to wait for a Dask worker to join before giving up


@contextlib.contextmanager
def _backend(scheduler) -> Iterator[Any]:
    """The ``distributed.Client`` to run on (``scheduler`` itself, or one connected to
    that address for the duration), or None for local joblib processes."""
    if scheduler is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError as err:  # pragma: no cover - distributed is a test dependency
        raise ImportError(
            "Running on a Dask cluster needs dask.distributed: pip install 'dask[distributed]'."
        ) from err
    if isinstance(scheduler, Client):
        _wait_for_workers(scheduler)
        yield scheduler
        return
    try:
        _check_answers(scheduler, WORKER_TIMEOUT // 2)
        client = Client(scheduler, timeout=WORKER_TIMEOUT // 2)
    except ValueError as err:  # distributed's word for a malformed address
        raise ValueError(
            f"{scheduler!r} is not a Dask scheduler address ({err}); give one such as "
            "tcp://host:8786 with --scheduler or DASK_SCHEDULER_ADDRESS"
            + (
                " (DASK_SCHEDULER_ADDRESS is set to it)"
                if os.environ.get("DASK_SCHEDULER_ADDRESS") == scheduler
                else ""
            )
            + ", or leave both unset to run on local processes."
        ) from err
    except (OSError, TimeoutError) as err:
        raise OSError(
            f"cannot reach the Dask scheduler at {scheduler!r}: {err}. Check the address "
            "(tcp://host:8786) and that `dask scheduler` is running there, or leave "
            "--scheduler/DASK_SCHEDULER_ADDRESS unset to run on local processes."
        ) from err
    with client:
        _wait_for_workers(client)
        yield client


def _check_answers(address: str, timeout: float) -> None:
    """A ``TimeoutError`` unless the scheduler at a ``tcp://`` ``address`` completes
    distributed's handshake within ``timeout`` s.

    ``distributed.Client`` waits for the handshake without a time limit, whatever its
    ``timeout`` (which covers the TCP connection only), so a server that accepts and then
    says nothing (another service on the port, a hung scheduler) hung the run for ever.
    The check runs in a thread of its own, so it works under a running event loop
    (Jupyter). Other schemes (``tls://`` with its security settings, ``inproc://``) go to
    the Client unchecked; a malformed address is the Client's ``ValueError``.
    """
    if not isinstance(address, str):
        return
    if "://" not in address:  # the Client's default scheme
        address = f"tcp://{address}"
    if not address.startswith("tcp://"):
        return
    host = address[len("tcp://") :].rpartition(":")[0]
    if "/" in host:  # "tcp//host:8786" is host "tcp//host" to distributed
        raise ValueError(f"its host {host!r} holds a '/': is 'tcp://' mistyped?")
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect

    async def handshake():
        # connect gives up after its timeout with its own reason (nothing accepts there);
        # with the whole limit it raced wait_for below, which then blamed a silent server
        comm = await connect(address, timeout=0.8 * timeout)
        comm.abort()

    async def limited():
        try:
            await asyncio.wait_for(handshake(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"no answer within {timeout} s (a server there accepted the connection but "
                "sent nothing: another service on that port, or a scheduler that hangs)"
            ) from None

    with ThreadPoolExecutor(1, thread_name_prefix="skewlearn-scheduler-check") as pool:
        pool.submit(asyncio.run, limited()).result()


def _wait_for_workers(client) -> None:
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
    except TimeoutError as err:
        raise TimeoutError(
            f"the Dask scheduler at {client.scheduler.address} has no worker after "
            f"{WORKER_TIMEOUT} s. Start one (`dask worker {client.scheduler.address}`), "
            "or run without a scheduler to use local processes."
        ) from err


def _run_searches(exp, search_tasks, store, n_jobs, scheduler, progress):
    """Run the shared searches not yet in ``store``. Returns ``{(dataset, method): (key,
    params)}`` of the searches that succeeded, the set of ``(dataset, method)`` whose
    search failed (recorded in the failures table), and the counts ``{"searches",
    "searches_ran", "searches_failed"}``."""
    from tqdm.auto import tqdm

    found = {r["search_key"]: r for r in store.searches(exp.name, current=False)}
    pending = [t for t in search_tasks if t.key not in found]
    ran = 0
    failed: set[tuple[str, str]] = set()
    with (
        _backend(scheduler) as client,
        tqdm(
            total=len(search_tasks),
            initial=len(search_tasks) - len(pending),
            desc=f"{exp.name} (searches)",
            unit="search",
            disable=not progress,
        ) as bar,
    ):
        if pending:
            for row in _results(run_search_or_failure, pending, n_jobs, client):
                if row.get("failed"):
                    store.write_failure(row)
                    failed.add((row["dataset"], row["method"]))
                else:
                    ran += store.write_search(row)
                    found[row["search_key"]] = row
                bar.update(1)
    chosen = {
        (t.dataset.name, t.estimator.name): (t.key, found[t.key]["params"])
        for t in search_tasks
        if t.key in found
    }
    counts = {"searches": len(search_tasks), "searches_ran": ran, "searches_failed": len(failed)}
    return chosen, failed, counts


def run_experiment(
    experiment: Experiment | str | Path,
    db: str | Path | ResultStore,
    *,
    n_jobs: int = -1,
    scheduler: str | Client | None = None,
    progress: bool = True,
    repeats: int | None = None,
) -> dict[str, int]:
    """Run every task of ``experiment`` not yet in ``db``.

    Parameters
    ----------
    experiment : Experiment, str or path
        The experiment, or the path of its TOML file, or the name of a shipped one.
    db : str, path or ResultStore
        The SQLite results database (or an open :class:`ResultStore`).
    n_jobs : int, default=-1
        Local worker processes (joblib's meaning: -1 = all cores; 1 = in-process); not
        used on a Dask cluster, where every worker thread takes tasks.
    scheduler : str, distributed.Client or None, default=None
        Dask scheduler address (``tcp://host:8786``) or a ``distributed.Client`` (used as
        given); None means ``DASK_SCHEDULER_ADDRESS`` when set, else local processes.
        Waits up to ``WORKER_TIMEOUT`` s for a first worker. A cluster that cancels the
        tasks mid-run (``client.restart()``) stops the run with :class:`TasksCancelled`;
        the finished tasks are saved and a re-run resumes.
    progress : bool, default=True
        Show a tqdm progress bar (rate and ETA).
    repeats : int or None, default=None
        Run only repetitions ``0 … repeats-1`` of the protocol (an explicit cut of the
        compute; the tasks keep their keys, so a later run without it adds the rest);
        None runs them all.

    Returns
    -------
    dict
        ``{"tasks": all tasks, "skipped": already in the database, "ran": run now,
        "failed": run now and refused by the learner}`` (failed tasks are kept in the
        database's ``failures`` table, with their error, and tried again by the next run);
        with ``search.scope = "first_fold"`` also ``"searches"`` (shared searches),
        ``"searches_ran"`` (run now; the others were found in the database),
        ``"searches_failed"`` (every candidate failed; recorded in ``failures`` and tried
        again by the next run) and ``"not_run"`` (tasks whose shared search failed);
        ``"written_elsewhere"`` when another run into the same database wrote some of the
        tasks this one ran first (their rows are kept; the numbers are the same).
    """
    from tqdm.auto import tqdm

    if repeats is not None and (
        isinstance(repeats, bool) or not isinstance(repeats, numbers.Integral) or repeats < 1
    ):
        raise ValueError(
            f"repeats must be a positive integer (run repetitions 0 … repeats-1) or None (all "
            f"of them); got {repeats!r}."
        )
    if n_jobs is not None and (
        isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0
    ):
        raise ValueError(
            "n_jobs must be -1 (all cores), a number of processes >= 1, or None (joblib's "
            f"default; -2 is all cores but one, and so on); got {n_jobs!r}."
        )
    exp = experiment if isinstance(experiment, Experiment) else load_experiment(experiment)
    if repeats is not None and repeats > exp.protocol.n_repeats:
        # a cut only: 9 ran the protocol's 4 without a word (probe x, session 24)
        raise ValueError(
            f"repeats={repeats} is more than the {exp.protocol.n_repeats} repetition(s) in "
            f"the protocol of experiment {exp.name!r}: repeats only cuts a run short (its first N "
            "repetitions). To run more, set n_repeats in the experiment file's [protocol] "
            f"table; for all {exp.protocol.n_repeats}, leave repeats out."
        )
    # the data once, before the database and any search or task: a bad option failed them
    # all alike
    in_process = n_jobs == 1 and scheduler is None and not os.environ.get("DASK_SCHEDULER_ADDRESS")
    exp = _check_datasets(exp, keep=in_process)
    store = db if isinstance(db, ResultStore) else ResultStore(db)
    try:
        if scheduler is None:
            scheduler = os.environ.get("DASK_SCHEDULER_ADDRESS") or None
        searches = None
        no_search: set[tuple[str, str]] = set()
        counts: dict[str, int] = {}
        search_tasks = expand_search_tasks(exp)
        if search_tasks:
            searches, no_search, counts = _run_searches(
                exp, search_tasks, store, n_jobs, scheduler, progress
            )
        tasks = expand_tasks(exp, searches)
        # what this definition reads back: rows of an earlier definition of the same name
        # stay in the database (and resume it) but leave the reports. The definition and
        # its keys are saved together, after the searches, so a run killed during them
        # leaves the earlier definition's report as it was.
        # n_tasks: how many the definition has, so a report of a partial run says so
        store.save_experiment(exp.name, {**exp.as_dict(), "n_tasks": len(tasks)})
        store.set_keys(exp.name, [t.key for t in tasks] + [t.key for t in search_tasks])
        if repeats is not None:
            tasks = [t for t in tasks if t.repetition < repeats]
        done = store.finished_keys()
        # tasks whose shared search failed are not run (their failure row says why)
        blocked = [
            t for t in tasks if (t.dataset.name, t.estimator.search_from or t.estimator.name)
            in no_search
        ]  # fmt: skip
        if search_tasks:
            counts["not_run"] = len(blocked)
        blocked_keys = {t.key for t in blocked}
        pending = [t for t in tasks if t.key not in done and t.key not in blocked_keys]
        ran = failed = elsewhere = 0
        with (
            _backend(scheduler) as client,
            tqdm(
                total=len(tasks),
                initial=len(tasks) - len(pending),
                desc=exp.name,
                unit="task",
                disable=not progress,
                smoothing=0.1,
            ) as bar,
        ):
            if pending:
                for row in _results(run_task_or_failure, pending, n_jobs, client):
                    if row.get("failed"):
                        store.write_failure(row)
                        failed += 1
                    elif store.write(row):
                        ran += 1
                    else:  # another run into the same database wrote it meanwhile
                        elsewhere += 1
                    bar.update(1)
        out = {
            "tasks": len(tasks),
            "skipped": len(tasks) - len(pending) - len(blocked),
            "ran": ran,
            "failed": failed,
            **counts,
        }
        if elsewhere:
            out["written_elsewhere"] = elsewhere
        return out
    finally:
        if not isinstance(db, ResultStore):
            store.close()
