"""Public names of the installed tabuleiro without a docstring or an example.

The public names are the ``__all__`` of ``tabuleiro``, ``tabuleiro.agents``
and each registered game's module, and the public methods and properties
that the public classes define themselves. A name has an example when its
docstring holds a doctest (``>>>``) or an ``Example`` section. Also lists the
docstrings that docs/api/conf.py shows verbatim because they are not valid
reStructuredText.

    python scripts/docstring_gaps.py            # report, exit 0
    python scripts/docstring_gaps.py --strict   # exit 1 while any gap is left

Run it with the installed package (not the checkout) on the path, as
scripts/ci_docs.sh does. Module-level data counts as documented when it has
a ``#:`` comment or a string after it (what autodoc shows); that check needs
Sphinx, and is skipped without it.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import runpy
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def has_example(doc: str) -> bool:
    return ">>>" in doc or "Example" in doc


def own_doc(obj: Any) -> str | None:
    """The object's own docstring (never one inherited from a base class)."""
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
    elif isinstance(obj, property):
        doc = obj.__doc__ or (obj.fget.__doc__ if obj.fget else None)
    elif isinstance(obj, (staticmethod, classmethod)):
        doc = obj.__func__.__doc__
    else:
        doc = getattr(obj, "__doc__", None)
    return doc if isinstance(doc, str) and doc.strip() else None


def attribute_docs(module: ModuleType) -> dict[str, str] | None:
    """{name: doc} of the module's ``#:``-documented data, or None without Sphinx."""
    try:
        from sphinx.pycode import ModuleAnalyzer
    except ImportError:
        return None
    try:
        found = ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
    except Exception:
        return {}
    return {name: "\n".join(lines) for (scope, name), lines in found.items() if scope == ""}


def is_data(obj: Any) -> bool:
    return not (inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj))


def public_modules() -> list[ModuleType]:
    import tabuleiro

    names = ["tabuleiro", "tabuleiro.agents"] + [f"tabuleiro.{g}" for g in tabuleiro.games()]
    return [importlib.import_module(n) for n in names]


def gaps() -> tuple[list[str], list[str], int]:
    """(names without a docstring, names whose docstring has no example, names checked)."""
    missing: list[str] = []
    no_example: list[str] = []
    checked = 0
    seen: set[int] = set()
    for module in public_modules():
        attr_docs = attribute_docs(module)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            full = f"{module.__name__}.{name}"
            if is_data(obj):
                if name == "__version__":
                    continue                       # a version string, documented in the README
                checked += 1
                if attr_docs is None:
                    continue
                if not attr_docs.get(name):
                    missing.append(f"{full} (data)")
                continue
            checked += 1
            doc = own_doc(obj)
            if doc is None:
                missing.append(full)
            elif not has_example(doc):
                no_example.append(full)
            if inspect.isclass(obj) and id(obj) not in seen:
                seen.add(id(obj))
                for member, value in vars(obj).items():
                    if member.startswith("_") or not (inspect.isroutine(value) or isinstance(
                            value, (property, staticmethod, classmethod))):
                        continue
                    checked += 1
                    mdoc = own_doc(value)
                    if mdoc is None:
                        missing.append(f"{full}.{member}")
                    elif not has_example(mdoc):
                        no_example.append(f"{full}.{member}")
    return missing, no_example, checked


def literal_docstrings() -> list[str]:
    conf = ROOT / "docs" / "api" / "conf.py"
    if not conf.exists():
        return []
    return sorted(runpy.run_path(str(conf)).get("LITERAL_DOCSTRINGS", ()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strict", action="store_true", help="exit 1 while any gap is left")
    args = ap.parse_args()
    import tabuleiro

    missing, no_example, checked = gaps()
    literal = literal_docstrings()
    print(f"docstring gaps of tabuleiro {tabuleiro.__version__} ({tabuleiro.__file__}): "
          f"{checked} public names checked")
    print(f"no docstring ({len(missing)}):")
    for n in missing:
        print(f"  {n}")
    print(f"docstring without an example ({len(no_example)}):")
    for n in no_example:
        print(f"  {n}")
    print(f"docstring shown verbatim in the API reference, not valid reStructuredText ({len(literal)}):")
    for n in literal:
        print(f"  {n}")
    return 1 if args.strict and (missing or no_example or literal) else 0


if __name__ == "__main__":
    sys.exit(main())
