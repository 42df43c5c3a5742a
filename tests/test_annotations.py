"""Every public function and method of skewlearn is annotated (parameters and return).

skewlearn ships ``py.typed``, so a user's type checker reads our signatures; a parameter
without a hint is ``Any`` to it, and a function without any hint is "untyped", which
``mypy --strict`` refuses to call. What the hints say is decided in docs/decisions.md
("Session 22: type hints on every public function's parameters"); the aliases are in
``skewlearn/_typing.py``, which type checkers read and the package never imports at run
time.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "skewlearn"


def _public_modules() -> list[Path]:
    """The package's modules outside private ones (``_rows.py``, ``datasets/_parse.py``)."""
    return sorted(
        p
        for p in PACKAGE.rglob("*.py")
        if not any(
            part.startswith("_") and part != "__init__.py" for part in p.relative_to(PACKAGE).parts
        )
    )


def _is_njit(decorator: ast.expr) -> bool:
    """``@njit``, ``@njit(...)``, ``@numba.njit``: compiled kernels, typed by numba."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return getattr(target, "id", getattr(target, "attr", "")) == "njit"


def _unannotated(tree: ast.Module, where: str) -> list[str]:
    """``where:line name(param)`` for each public function or method (``__init__``
    included) of ``tree`` with a parameter or a return (not ``__init__``'s) without a hint.
    Methods of private classes count too: public classes inherit them (``_Window.update``
    is ``WindowedROCAUC.update``)."""
    missing = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if child.name.startswith("_") and child.name != "__init__":
                    continue
                if any(_is_njit(d) for d in child.decorator_list):
                    continue
                a = child.args
                params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                name = f"{where}:{child.lineno} {prefix}{child.name}"
                missing.extend(
                    f"{name}({p.arg})"
                    for p in params
                    if p is not None and p.arg not in ("self", "cls") and p.annotation is None
                )
                if child.returns is None and child.name != "__init__":
                    missing.append(f"{name} -> ?")

    visit(tree, "")
    return missing


def test_every_public_parameter_and_return_is_annotated():
    missing = []
    for path in _public_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        missing += _unannotated(tree, path.relative_to(PACKAGE).as_posix())
    assert not missing, "Annotate these (aliases in skewlearn/_typing.py):\n" + "\n".join(missing)


def test_the_check_sees_what_it_looks_for():
    """The walk finds a missing hint on a public method, a private class's method, a
    keyword-only and a ``**kwargs`` parameter and a return, and skips private functions,
    ``self`` and numba kernels."""
    source = """
class A:
    def __init__(self, a: int, b) -> None: ...
    def f(self, x: int, *, k, **kw) -> int: ...
    def _private(self, x): ...
class _B:
    def update(self, y: int) : ...
@njit(cache=True)
def kernel(x): ...
def g(x: int) -> int: ...
"""
    found = _unannotated(ast.parse(source), "m.py")
    assert found == [
        "m.py:3 A.__init__(b)",
        "m.py:4 A.f(k)",
        "m.py:4 A.f(kw)",
        "m.py:7 _B.update -> ?",
    ]


def test_the_hints_module_is_not_imported_at_run_time():
    """The modules import ``skewlearn._typing`` under ``if TYPE_CHECKING:`` only (with
    ``from __future__ import annotations`` the hints are never evaluated), so the hints
    cost ``import skewlearn`` nothing."""
    modules = sorted(
        ".".join(("skewlearn", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(
            ".__init__"
        )
        for p in PACKAGE.rglob("*.py")
        if p.name not in ("_typing.py", "__main__.py")
    )
    code = (
        "import importlib, sys\n"
        f"sys.path.insert(0, {str(PACKAGE.parent)!r})\n"
        f"for m in {modules!r}:\n"
        "    try:\n"
        "        importlib.import_module(m)\n"
        "    except ImportError:  # an optional dependency (River) not installed\n"
        "        pass\n"
        "print('skewlearn._typing' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8", check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
