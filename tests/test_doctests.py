"""The examples in the docstrings of the installed package run and pass.

One test per pure-Python module of the installed ``tabuleiro`` (compiled
extension modules and ``__main__`` are skipped), with ELLIPSIS and
NORMALIZE_WHITESPACE. A module without examples passes, but the examples
found across the package must span at least ``MIN_MODULES`` modules, so
this cannot pass silently on nothing.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.machinery
import importlib.util
import pkgutil

import pytest

import tabuleiro

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
MIN_MODULES = 3


def _is_extension(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return False
    return isinstance(spec.loader, importlib.machinery.ExtensionFileLoader) or \
        spec.origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _modules() -> list[str]:
    names = ["tabuleiro"]
    names += [m.name for m in pkgutil.walk_packages(tabuleiro.__path__, "tabuleiro.")]
    return sorted(n for n in names if n.rsplit(".", 1)[-1] != "__main__" and not _is_extension(n))


MODULES = _modules()


def _doctests(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    # a module's own docstrings only (not those of what it imports), not the empty ones
    tests = doctest.DocTestFinder(exclude_empty=True).find(module, name)
    return [t for t in tests if t.examples]


def test_the_installed_package_is_searched() -> None:
    assert "tabuleiro.agents" in MODULES, MODULES


def test_examples_exist_in_enough_modules() -> None:
    with_examples = [name for name in MODULES if _doctests(name)]
    assert len(with_examples) >= MIN_MODULES, f"doctests found only in {with_examples}"


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    for test in _doctests(name):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def _compiled_public_objects() -> list[tuple[str, object]]:
    """The package's public names whose docstrings live in the compiled
    extension (DocTestFinder skips them: their __module__ is '_core')."""
    from tabuleiro import _core
    out = []
    for modname in MODULES:
        module = importlib.import_module(modname)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr, None)
            if isinstance(obj, type) and obj.__module__ in ("_core", _core.__name__):
                out.append((f"{modname}.{attr}", obj))
    # every game's State inherits these (determinize, perft, ...) from the base
    out.append(("tabuleiro.State (CoreState)", _core.CoreState))
    return out


def test_examples_of_compiled_classes_run() -> None:
    """StopFlag, WeaveOption and the rest: their class and method examples."""
    objs = _compiled_public_objects()
    names = {name.rsplit(".", 1)[-1] for name, _ in objs}
    assert {"StopFlag", "WeaveOption"} <= names, names
    ran = 0
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=FLAGS)
    for name, obj in objs:
        docs = [(name, obj.__doc__)] + [(f"{name}.{k}", getattr(v, "__doc__", None))
                                        for k, v in vars(obj).items() if not k.startswith("_")]
        for label, doc in docs:
            if not doc or ">>>" not in doc:
                continue
            test = parser.get_doctest(doc, {"tabuleiro": tabuleiro}, label, None, 0)
            ran += len(test.examples)
            runner.run(test)
    assert ran > 0
    assert runner.failures == 0, f"{runner.failures} failing examples (output above)"
