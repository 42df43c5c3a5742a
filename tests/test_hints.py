"""One "Did you mean" for every list of names: the CLI, experiment files and the dataset
registry used to suggest differently (case, cutoff, "or" against ",")."""

from __future__ import annotations

import pytest

from skewlearn._hints import did_you_mean


@pytest.mark.parametrize(
    ("name", "choices", "expected"),
    [
        ("PIMA", ["pima", "yeast4"], " Did you mean 'pima'?"),
        ("Yeast4", ["yeast1", "yeast3", "yeast4", "pima"], " Did you mean 'yeast4', 'yeast3' or "
         "'yeast1'?"),
        ("Perceptrn", ["Perceptron", "OGD"], " Did you mean 'Perceptron'?"),
        ("zzz", ["pima", "yeast4"], ""),
        ("ab", ["AB", "ab"], " Did you mean 'AB'?"),  # one per spelling, the first seen
        (5, ["5a", "x"], " Did you mean '5a'?"),
    ],
)  # fmt: skip
def test_did_you_mean(name, choices, expected):
    assert did_you_mean(name, choices) == expected


def test_every_place_suggests_the_same(capsys):
    from skewlearn import datasets
    from skewlearn.cli import main
    from skewlearn.experiments import ExperimentError, parse_experiment

    hint = "Did you mean 'yeast4', 'yeast3' or 'yeast1'?"
    with pytest.raises(ValueError, match=hint):
        datasets.load("Yeast4")
    with pytest.raises(ExperimentError, match=hint):
        parse_experiment(
            {"name": "x", "datasets": ["Yeast4"], "estimators": [{"class": "Perceptron"}]}
        )
    with pytest.raises(SystemExit):
        main(["datasets", "Yeast4"])
    assert hint in capsys.readouterr().err
