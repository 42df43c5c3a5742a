"""Run an experiment: expand it into tasks, farm them out with joblib, store each result.

A task is (dataset, estimator with its parameters and grid, repetition, fold, seed). Tasks
go through :class:`joblib.Parallel` — local processes (loky) by default, a Dask cluster
when a scheduler address is given (``scheduler=`` or the ``DASK_SCHEDULER_ADDRESS``
environment variable) through joblib's dask backend. Results stream back unordered and the
parent writes each one to the results database at once, so a killed run resumes where it
stopped. Each worker process loads a dataset once and keeps it for its later tasks.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import platform
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..evaluation.protocols import (
    Prequential,
    evaluate_split,
    prequential_run,
    task_seed,
)
from .config import DatasetSpec, EstimatorSpec, Experiment, load_experiment
from .store import ResultStore

__all__ = ["Task", "expand_tasks", "load_dataset", "run_experiment", "run_task"]


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

    @property
    def key(self) -> str:
        """A stable key of the task's whole definition (a changed grid is a new task)."""
        spec = {
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
        text = json.dumps(spec, sort_keys=True, default=str)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def expand_tasks(exp: Experiment) -> list[Task]:
    """Every task of an experiment, datasets outermost (so a worker reuses its data)."""
    tasks = []
    for ds in exp.datasets:
        for rep in range(exp.protocol.n_repeats):
            for fold in range(exp.protocol.n_folds):
                for common in exp.estimators:
                    est = common.for_dataset(ds.name)  # per-dataset params/grid, or skip
                    if est is None:
                        continue
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
                            search_metric=exp.search_metric,
                            inner_splits=exp.inner_splits,
                            curves=exp.curves,
                        )
                    )
    return tasks


# --------------------------------------------------------------------------- data
#: Per-process cache of loaded datasets: a worker loads each dataset once.
_DATASETS: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _minority_positive(y) -> np.ndarray:
    values, counts = np.unique(y, return_counts=True)
    if len(values) != 2:
        raise ValueError(f"a dataset must have two classes; got {len(values)}: {values}.")
    minority = values[np.argmin(counts)]
    return np.where(y == minority, 1, -1)


def load_dataset(spec: DatasetSpec) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` of a dataset spec, y in {-1, +1} with the minority class +1; cached."""
    key = json.dumps(spec.as_dict(), sort_keys=True)
    if key in _DATASETS:
        return _DATASETS[key]
    if spec.generator is not None:
        import sklearn.datasets

        X, y = getattr(sklearn.datasets, spec.generator)(**spec.params)
        y = _minority_positive(y)
        if spec.scale:
            from sklearn.preprocessing import MinMaxScaler

            X = MinMaxScaler().fit_transform(X)
    else:
        from .. import datasets

        if not hasattr(datasets, "load"):
            raise RuntimeError(
                f"dataset {spec.name!r} needs skewlearn.datasets.load, which this build lacks; "
                "use a generator dataset instead."
            )
        X, y, _meta = datasets.load(spec.source, scale=spec.scale)
        y = np.asarray(y)
    _DATASETS[key] = (X, y)
    return X, y


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


def run_task(task: Task) -> dict[str, Any]:
    """Run one task and return its database row (called in the worker)."""
    t0 = time.perf_counter()
    X, y = load_dataset(task.dataset)
    seed = task_seed(task.seed, task.dataset.name, task.repetition, task.fold)
    est = task.estimator.build()
    if "random_state" in est.get_params() and "random_state" not in task.estimator.params:
        est.set_params(random_state=seed)
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
        params = out["params"]
        if "search" in out:
            extra["search"] = out["search"]
        if out.get("curves"):
            extra["curves"] = out["curves"]
    return {
        "task_key": task.key,
        "experiment": task.experiment,
        "dataset": task.dataset.name,
        "method": task.estimator.name,
        "repetition": task.repetition,
        "fold": task.fold,
        "seed": seed,
        "params": params,
        "metrics": out["metrics"],
        "extra": extra,
        "fit_time": out["fit_time"],
        "score_time": out["score_time"],
        "wall_time": time.perf_counter() - t0,
        **_versions(),
        "host": f"{socket.gethostname()}:{os.getpid()}",
        "finished_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }


# --------------------------------------------------------------------------- the run
@contextlib.contextmanager
def _backend(scheduler) -> Iterator[None]:
    """joblib's dask backend on ``scheduler`` (an address or a distributed.Client), or
    nothing (joblib's default, loky processes)."""
    if scheduler is None:
        yield
        return
    import joblib

    try:
        from distributed import Client
    except ImportError as err:  # pragma: no cover - distributed is a test dependency
        raise ImportError(
            "Running on a Dask cluster needs dask.distributed: pip install 'dask[distributed]'."
        ) from err
    if isinstance(scheduler, Client):
        with joblib.parallel_config(backend="dask", wait_for_workers_timeout=60):
            yield
        return
    with Client(scheduler), joblib.parallel_config(backend="dask", wait_for_workers_timeout=60):
        yield


def run_experiment(
    experiment: Experiment | str | Path,
    db: str | Path | ResultStore,
    *,
    n_jobs: int = -1,
    scheduler=None,
    progress: bool = True,
) -> dict[str, int]:
    """Run every task of ``experiment`` not yet in ``db``.

    Parameters
    ----------
    experiment : Experiment, or a TOML path / shipped name
    db : path of the SQLite results database (or an open :class:`ResultStore`)
    n_jobs : local worker processes (joblib's meaning: -1 = all cores; 1 = in-process)
    scheduler : Dask scheduler address (``tcp://host:8786``) or a ``distributed.Client``;
        default ``DASK_SCHEDULER_ADDRESS`` when set, else local processes
    progress : show a tqdm progress bar (rate and ETA)

    Returns
    -------
    dict
        ``{"tasks": all tasks, "skipped": already in the database, "ran": run now}``.
    """
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    exp = experiment if isinstance(experiment, Experiment) else load_experiment(experiment)
    store = db if isinstance(db, ResultStore) else ResultStore(db)
    try:
        store.save_experiment(exp.name, exp.as_dict())
        tasks = expand_tasks(exp)
        done = store.finished_keys()
        pending = [t for t in tasks if t.key not in done]
        if scheduler is None:
            scheduler = os.environ.get("DASK_SCHEDULER_ADDRESS") or None
        ran = 0
        with (
            _backend(scheduler),
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
                parallel = Parallel(
                    n_jobs=n_jobs if scheduler is None else -1,
                    return_as="generator_unordered",
                    batch_size=1,
                )
                for row in parallel(delayed(run_task)(t) for t in pending):
                    ran += store.write(row)
                    bar.update(1)
        return {"tasks": len(tasks), "skipped": len(tasks) - len(pending), "ran": ran}
    finally:
        if not isinstance(db, ResultStore):
            store.close()
