"""Kernel perceptron family: KernelPerceptron, RBP, Forgetron, Projectron, Projectron++."""

from __future__ import annotations

__all__: list[str] = []
