"""PettingZoo AEC environments of the tabuleiro games (``pip install
'tabuleiro[pettingzoo]'``): ``capivarias_v0`` and ``capulana_v0``, each with
``raw_env`` and the wrapped ``env()``. Observations are the tensors of
docs/observations.md with the legal-action mask; numpy, gymnasium and
pettingzoo are imported only when a module here is.
"""

__all__ = ["capivarias_v0", "capulana_v0"]
