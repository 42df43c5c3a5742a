"""A small experiment shared by the experiment-engine tests."""

from __future__ import annotations

import textwrap

import pytest

TOY = textwrap.dedent(
    """
    name = "toy"
    seed = 3
    metrics = ["roc_auc", "gmean"]
    reference = ["Ridge"]

    [[datasets]]
    name = "a"
    generator = "make_classification"
    params = {n_samples = 160, n_features = 5, weights = [0.85], random_state = 0}

    [[datasets]]
    name = "b"
    generator = "make_classification"
    params = {n_samples = 120, n_features = 6, weights = [0.8], random_state = 1}

    [protocol]
    kind = "kfold"
    n_splits = 3
    n_repeats = 2

    [search]
    metric = "roc_auc"
    inner_splits = 3

    [[estimators]]
    name = "Ridge"
    class = "sklearn.linear_model.RidgeClassifier"
    grid = {alpha = "10^[-2:1]"}

    [[estimators]]
    name = "Perceptron"
    class = "Perceptron"

    [[estimators]]
    name = "PA"
    class = "PassiveAggressive"
    grid = {C = "2^[-2:1]"}
    """
)


@pytest.fixture
def toy_file(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(TOY)
    return path
