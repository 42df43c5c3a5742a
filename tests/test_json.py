"""skewlearn._json: standard JSON with documented encodings of NaN and ±inf."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from skewlearn._json import dumps, dumps_exact, finite_or_none, loads_exact, nan_for_none


def _strict(text):
    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


VALUE = {
    "a": [1.0, math.nan, math.inf, -math.inf],
    "b": (np.float32("nan"), np.int64(3), np.bool_(True)),
    "c": np.array([0.5, np.inf]),
    "d": {"e": None, "f": "NaN text", "g": np.float64(-np.inf)},
}


def test_python_json_is_not_standard_json():
    with pytest.raises(ValueError, match="not JSON: NaN"):
        _strict(json.dumps({"a": math.nan}))


def test_dumps_writes_null_for_every_non_finite_float():
    assert _strict(dumps(VALUE)) == {
        "a": [1.0, None, None, None],
        "b": [None, 3, True],
        "c": [0.5, None],
        "d": {"e": None, "f": "NaN text", "g": None},
    }
    assert finite_or_none(np.float64(2.0)) == 2.0 and type(finite_or_none(np.float64(2))) is float


def test_dumps_exact_round_trips_the_non_finite_floats():
    text = dumps_exact(VALUE)
    assert _strict(text)["a"] == [1.0, "NaN", "Infinity", "-Infinity"]
    back = loads_exact(text)
    assert back["a"][0] == 1.0 and math.isnan(back["a"][1])
    assert back["a"][2:] == [math.inf, -math.inf]
    assert math.isnan(back["b"][0]) and back["b"][1:] == [3, True]
    assert back["c"] == [0.5, math.inf]
    assert back["d"] == {"e": None, "f": "NaN text", "g": -math.inf}


def test_loads_exact_reads_what_python_json_wrote():
    back = loads_exact('{"a": NaN, "b": [Infinity, -Infinity]}')
    assert math.isnan(back["a"]) and back["b"] == [math.inf, -math.inf]


def test_nan_for_none_inverts_dumps_for_numbers():
    back = nan_for_none(_strict(dumps({"auc": math.nan, "curve": [0.5, math.nan]})))
    assert math.isnan(back["auc"]) and back["curve"][0] == 0.5 and math.isnan(back["curve"][1])
