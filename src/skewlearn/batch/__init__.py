"""Batch learners for imbalanced data: ASLS and (multi-)Nyström with MKL."""

from . import asls, mkl, nystrom
from .asls import *  # noqa: F403
from .mkl import *  # noqa: F403
from .nystrom import *  # noqa: F403

__all__ = [
    *asls.__all__,
    *nystrom.__all__,
    *mkl.__all__,
]
