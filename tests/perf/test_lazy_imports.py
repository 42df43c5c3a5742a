"""Lazy imports: ``import skewlearn`` loads no heavy library, a name loads only its family,
the public names are unchanged, and ``skewlearn stream`` on a file keeps pandas out."""

from __future__ import annotations

import importlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import skewlearn

ROOT = Path(__file__).parents[2]
HEAVY = ("numba", "sklearn", "scipy", "pandas", "matplotlib", "dask", "river", "tqdm")


def _probe(code: str, *argv: str) -> dict:
    """Run ``code`` in a fresh interpreter (this checkout's src first); it prints JSON."""
    env_code = (
        f"import sys; sys.path.insert(0, {str(ROOT / 'src')!r}); sys.argv[1:] = {list(argv)!r}\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", env_code + code], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_fast_path_map_names_every_public_name_of_its_family():
    families = {
        fam: importlib.import_module(f"skewlearn.{fam}").__all__ for fam in skewlearn._FAMILIES
    }
    expected = {name: fam for fam, names in families.items() for name in names}
    assert skewlearn._WHERE == expected


def test_all_is_the_union_of_the_families():
    names = [
        n
        for fam in skewlearn._FAMILIES
        for n in importlib.import_module(f"skewlearn.{fam}").__all__
    ]
    assert skewlearn.__all__ == [*names, "__version__"]
    for name in names:
        assert getattr(skewlearn, name) is getattr(
            importlib.import_module(f"skewlearn.{skewlearn._WHERE[name]}"), name
        )
    assert set(names) <= set(dir(skewlearn))


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchLearner'"):
        skewlearn.NoSuchLearner  # noqa: B018
    with pytest.raises(ImportError, match="NoSuchLearner"):
        exec("from skewlearn import NoSuchLearner", {})


def test_import_skewlearn_loads_no_heavy_library():
    got = _probe(
        "import json, sys, skewlearn\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    assert got == []


def test_a_name_loads_only_its_family():
    got = _probe(
        "import json, sys\nfrom skewlearn import PassiveAggressive\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('skewlearn.')"
        " or m in ('pandas', 'matplotlib', 'dask', 'river', 'tqdm'))))"
    )
    assert "skewlearn.linear.first_order" in got
    for absent in ("skewlearn.kernel", "skewlearn.batch", "skewlearn.ensemble", "skewlearn.auc",
                   "skewlearn.experiments", "matplotlib", "dask", "river", "tqdm"):  # fmt: skip
        assert absent not in got


def test_star_import_gives_every_name():
    ns: dict = {}
    exec("from skewlearn import *", ns)
    assert {n for n in skewlearn.__all__} <= set(ns)


@pytest.fixture(scope="module")
def small_file(tmp_path_factory):
    from .test_out_of_core import _make_libsvm

    mod = _make_libsvm()
    path = tmp_path_factory.mktemp("lazy") / "s.svm"
    mod.write_stream(str(path), rows=3000, d=10, pos_rate=0.1, seed=1)
    return path


def test_cli_stream_of_a_file_keeps_pandas_out_with_the_same_results(small_file):
    argv = ["stream", str(small_file), "--model", "PassiveAggressive", "--no-progress",
            "--format", "json"]  # fmt: skip
    code = (
        "import contextlib, io, json, sys\nfrom skewlearn.cli import main\n"
        "buf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    main({argv})\n"
        "print(json.dumps({{'final': json.loads(buf.getvalue())['final'],"
        " 'pandas': sys.modules.get('pandas', 'absent') is None,"
        " 'sklearn': 'sklearn' in sys.modules}}))"
    )
    as_command = _probe(code.format(argv="None"), *argv)  # the console script: main()
    from_python = _probe(code.format(argv=repr(argv)))  # main(argv): pandas untouched
    assert as_command["pandas"] and as_command["sklearn"]
    assert not from_python["pandas"]
    timing = ("seconds", "rows_per_s")
    drop = lambda final: {k: v for k, v in final.items() if k not in timing}  # noqa: E731
    assert drop(as_command["final"]) == drop(from_python["final"])
