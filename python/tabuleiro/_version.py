"""The version of tabuleiro: the one place it is written.

pyproject.toml reads it from here (scikit-build-core's regex metadata
provider) and ``tabuleiro.__version__`` re-exports it. A release changes this
line, CHANGELOG.md and nothing else (README.md, "Release").
"""

__version__ = "0.1.0"
