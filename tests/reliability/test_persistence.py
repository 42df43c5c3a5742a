"""Pickle and joblib round trips of every public estimator continue bit-identically,
mid-stream included; saved classifiers carry the skewlearn version."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import joblib
import numpy as np
import pytest
from sklearn.base import clone, is_classifier

import skewlearn
from skewlearn._discovery import all_estimators
from skewlearn.base import BinaryClassifier

from .test_table import data, make, out


def _pickle(est):
    return pickle.loads(pickle.dumps(est))


def _joblib(est):
    buf = io.BytesIO()
    joblib.dump(est, buf)
    buf.seek(0)
    return joblib.load(buf)


ROUND_TRIPS = {"pickle": _pickle, "joblib": _joblib}
ESTIMATORS = all_estimators()


@pytest.mark.parametrize("trip", ROUND_TRIPS)
@pytest.mark.parametrize("cls", ESTIMATORS.values(), ids=ESTIMATORS.keys())
def test_round_trip_is_bit_identical(cls, trip):
    X, y = data(n=80)
    est = make(cls)
    if hasattr(est, "partial_fit"):
        est.partial_fit(X[:40], y[:40], classes=[0, 1])
        copy = ROUND_TRIPS[trip](est)
        np.testing.assert_array_equal(out(copy, X), out(est, X))
        # both continue the stream (random draws included) identically
        a = est.test_then_train(X[40:], y[40:])
        b = copy.test_then_train(X[40:], y[40:])
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(out(copy, X), out(est, X))
    else:
        est.fit(X, y)
        copy = ROUND_TRIPS[trip](est)
        np.testing.assert_array_equal(out(copy, X), out(est, X))
        if is_classifier(est):
            np.testing.assert_array_equal(copy.predict(X), est.predict(X))
        # a refit of the copy equals a refit of a clone
        np.testing.assert_array_equal(
            out(copy.fit(X[:60], y[:60]), X), out(clone(est).fit(X[:60], y[:60]), X)
        )


@pytest.mark.parametrize(
    "cls",
    [c for c in ESTIMATORS.values() if issubclass(c, BinaryClassifier)],
    ids=[n for n, c in ESTIMATORS.items() if issubclass(c, BinaryClassifier)],
)
def test_saved_classifier_records_the_version(cls):
    X, y = data()
    est = make(cls).fit(X, y)
    assert est.__getstate__()["_skewlearn_version"] == skewlearn.__version__
    state = dict(est.__getstate__(), _skewlearn_version="0.0.1")
    blank = cls.__new__(cls)
    with pytest.raises(ValueError, match=r"saved by skewlearn 0\.0\.1.*Refit"):
        blank.__setstate__(state)


# ---------------------------------------------------------------- files written in one step
@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_atomic_write_gives_the_mode_a_plain_open_gives(tmp_path, umask):
    """Session 15: saved models and extracted data-cache files were written through
    tempfile.mkstemp and kept its 0600: a model saved for a team, or a shared data cache,
    was unreadable to everyone else."""
    import os

    from skewlearn._files import atomic_write

    old = os.umask(umask)
    try:
        with open(tmp_path / "plain", "wb") as fh:
            fh.write(b"x")
        with atomic_write(tmp_path / "atomic") as fh:
            fh.write(b"x")
    finally:
        os.umask(old)
    mode = lambda p: (tmp_path / p).stat().st_mode & 0o777  # noqa: E731
    assert mode("atomic") == mode("plain") == 0o666 & ~umask


def test_atomic_write_leaves_the_old_file_when_the_write_fails(tmp_path):
    from skewlearn._files import atomic_write

    target = tmp_path / "model.skl"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_write(target) as fh:
        fh.write(b"half")
        raise RuntimeError("disk full")
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["model.skl"]
    with atomic_write(target) as fh:
        fh.write(b"new")
    assert target.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["model.skl"]


def test_atomic_write_through_a_link_is_atomic_and_keeps_the_files_mode(tmp_path):
    """Through a symbolic link (session 27) the linked file is replaced as a plain path's
    is: a failed write leaves its old bytes whole and no temporary file, a finished one
    keeps its mode (not the link's 0o777) and the link."""
    from skewlearn._files import atomic_write

    shared = tmp_path / "shared"
    shared.mkdir()
    target, link = shared / "model.skl", tmp_path / "link.skl"
    target.write_bytes(b"old")
    target.chmod(0o640)
    link.symlink_to(target)
    with pytest.raises(RuntimeError), atomic_write(link) as fh:
        fh.write(b"half")
        fh.flush()
        assert target.read_bytes() == b"old"  # (not written in place)
        raise RuntimeError("disk full")
    assert target.read_bytes() == b"old" and [p.name for p in shared.iterdir()] == ["model.skl"]
    with atomic_write(link) as fh:
        fh.write(b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640


def test_atomic_write_refuses_a_link_loop_as_open_does(tmp_path):
    """A symbolic link that leads back to itself is refused (ELOOP), as `open()` refuses
    it; it was replaced by a regular file (session 27, probe r)."""
    import errno

    from skewlearn._files import atomic_write

    loop, back = tmp_path / "loop", tmp_path / "back"
    loop.symlink_to(back)
    back.symlink_to(loop)
    with pytest.raises(OSError) as plain:
        open(loop, "wb")
    with pytest.raises(OSError) as ours, atomic_write(loop) as fh:
        fh.write(b"new")
    assert ours.value.errno == plain.value.errno == errno.ELOOP
    assert loop.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["back", "loop"]


def test_saved_models_and_cached_data_files_are_readable_by_the_group(tmp_path, monkeypatch):
    import io
    import os
    import zipfile

    from skewlearn.cli import main
    from skewlearn.datasets import fetch_file

    old = os.umask(0o022)
    try:
        model = tmp_path / "m.skl"
        data_file = str(Path(__file__).parents[1] / "data" / "cli_stream.svm")
        assert main(["stream", data_file, "--model", "PassiveAggressive",
                     "--save", str(model), "--no-progress"]) == 0  # fmt: skip
        wheels = tmp_path / "cache" / "wheels"
        wheels.mkdir(parents=True)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("toy_pkg/data/toy.dat", "1,2\n")
        (wheels / "toy_pkg-1.0-py3-none-any.whl").write_bytes(buf.getvalue())
        data = fetch_file("toy-pkg", "toy_pkg/data/toy.dat", version="1.0",
                          data_home=tmp_path / "cache")  # fmt: skip
    finally:
        os.umask(old)
    assert model.stat().st_mode & 0o777 == 0o644
    assert data.stat().st_mode & 0o777 == 0o644
