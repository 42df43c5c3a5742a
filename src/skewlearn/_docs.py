"""Docstrings that code reads or fills, also under ``python -OO`` (which strips them)."""

from __future__ import annotations


def fill_doc(obj: type, **fields: str) -> None:
    """Replace each ``{name}`` in ``obj.__doc__`` by ``fields[name]``.

    Under ``python -OO`` (``PYTHONOPTIMIZE=2``) docstrings are ``None`` and there is nothing
    to fill: ``OAM.__doc__.replace(...)`` raised AttributeError there, so importing the
    AUC, kernel and second-order learners failed.
    """
    doc = obj.__doc__
    if doc is None:
        return
    for name, text in fields.items():
        doc = doc.replace("{" + name + "}", text)
    obj.__doc__ = doc


def first_line(doc: str | None) -> str | None:
    """The first line of a module's docstring (an argparse description), None under -OO."""
    return doc.splitlines()[0] if doc else None
