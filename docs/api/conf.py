"""Sphinx configuration of the API reference (autodoc + napoleon).

Built from the docstrings of the *installed* package, warnings as errors:

    python -m pip install '.[docs]'
    python -m sphinx -W --keep-going -b html docs/api build/docs/html

(``bash scripts/ci_docs.sh`` does both in a fresh virtual environment; .ci/run
runs it.) Each page documents a module's ``__all__``: autodoc lists the
names that have a docstring and leaves out the rest, so a missing docstring
never breaks the build; ``python scripts/docstring_gaps.py`` names them.

A docstring that is not valid reStructuredText would fail the build: the ones
in ``LITERAL_DOCSTRINGS`` are shown verbatim (a literal block) instead, until
their owners fix them; scripts/docstring_gaps.py lists them too. Take an
entry out once its docstring is fixed.
"""

from __future__ import annotations

import tabuleiro

project = "tabuleiro"
author = "the tabuleiro developers"
copyright = "the tabuleiro developers"
release = tabuleiro.__version__
version = ".".join(release.split(".")[:2])

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
exclude_patterns = ["_build"]
root_doc = "index"

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = True

#: ``module.qualname`` of the objects whose docstrings are shown verbatim.
LITERAL_DOCSTRINGS: set[str] = set()


def origin(obj: object) -> str:
    """``module.qualname`` of an object (a module's own name for a module)."""
    qualname = getattr(obj, "__qualname__", None)
    module = getattr(obj, "__module__", None)
    if qualname and module:
        return f"{module}.{qualname}"
    return str(getattr(obj, "__name__", ""))


def literal_docstring(app, what, name, obj, options, lines):  # type: ignore[no-untyped-def]
    if lines and (name in LITERAL_DOCSTRINGS or origin(obj) in LITERAL_DOCSTRINGS):
        lines[:] = ["::", ""] + ["    " + line for line in lines] + [""]


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("autodoc-process-docstring", literal_docstring)


html_theme = "alabaster"
html_title = f"tabuleiro {release} API reference"
