"""The arena's statistics: Elo from scores, pentanomial Elo intervals over
deal pairs, the SPRT, Student's t intervals and OpenSkill ratings.

Pure functions of numbers (and, for :func:`_openskill`, of game records):
no file, process or plotting here. :func:`tabuleiro.arena.summarize` puts
them together.

>>> round(elo_from_score(0.75), 1)
190.8
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

__all__ = ["PENTA_SCORES", "elo_from_score", "SPRT"]

#: Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)
_Z95 = 1.959963984540054


def _t95(df: int) -> float:
    if df <= 0:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    return _Z95 + (_Z95 ** 3 + _Z95) / (4 * df)


PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference of an expected score in (0, 1) (+-inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _solve_theta(phat: Sequence[float], phi: Sequence[float]) -> float:
    """The root of g(x) = sum phat_i phi_i / (1 + x phi_i) on (-1/max phi, -1/min phi),
    where g falls from +inf to -inf (safeguarded Newton)."""
    lo, hi = -1.0 / max(phi), -1.0 / min(phi)
    x = 0.0
    for _ in range(200):
        g = dg = 0.0
        for p, f in zip(phat, phi):
            d = 1.0 + x * f
            g += p * f / d
            dg -= p * f * f / (d * d)
        if g > 0:
            lo = x
        elif g < 0:
            hi = x
        else:
            return x
        nx = x - g / dg
        if not lo < nx < hi:
            nx = 0.5 * (lo + hi)
        if abs(nx - x) <= 1e-15 * (1.0 + abs(x)):
            return nx
        x = nx
    return x


def _mle_logistic(phat: Sequence[float], s: float) -> list[float]:
    """The distribution on PENTA_SCORES closest to ``phat`` (maximum likelihood)
    with expectation ``s`` (Van den Bergh, prop. 1.1)."""
    phi = [a - s for a in PENTA_SCORES]
    th = _solve_theta(phat, phi)
    return [p / (1.0 + th * f) for p, f in zip(phat, phi)]


def _mle_normalized(phat: Sequence[float], t: float, mu_ref: float = 0.5, _depth: int = 0) -> list[float]:
    """The maximum-likelihood distribution with (mu - mu_ref) / sigma = t
    (Van den Bergh, section 4.1: the fixed point of p_i = p^_i / (1 + theta phi_i)).

    It starts from the empirical law (fastchess starts from the uniform one;
    the fixed point is the same); when phi has no sign change there, the
    solution for t/2 is the starting point instead (a hypothesis far from the
    results, e.g. a large elo1 with an even score)."""
    p = list(phat)
    for attempt in range(2):
        ok = True
        for _ in range(1000):
            mu = sum(a * q for a, q in zip(PENTA_SCORES, p))
            sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(PENTA_SCORES, p)))
            phi = [a - mu_ref - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in PENTA_SCORES]
            if not min(phi) < 0.0 < max(phi):
                ok = False
                break
            th = _solve_theta(phat, phi)
            new = [q / (1.0 + th * f) for q, f in zip(phat, phi)]
            diff = max(abs(a - b) for a, b in zip(new, p))
            p = new
            if diff < 1e-10:
                break
        if ok:
            return p
        if attempt == 0 and _depth < 30 and t != 0.0:
            p = _mle_normalized(phat, t / 2, mu_ref, _depth + 1)
    raise ValueError(f"the SPRT's normalized Elo bound (t={t:.3g}) is out of reach of these results")


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test on game pairs, as fastchess and
    OpenBench run it.

    H0: the first agent is ``elo0`` stronger than the second; H1: ``elo1``.
    After every deal pair the log-likelihood ratio (LLR) of the pentanomial
    counts is compared with Wald's bounds ``lower = ln(beta / (1 - alpha))``
    and ``upper = ln((1 - beta) / alpha)``: at or above ``upper`` H1 is
    accepted, at or below ``lower`` H0, in between play goes on.

    The LLR is the generalized one of M. Van den Bergh, "Comments on
    Normalized Elo" (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf),
    as fastchess's ``sprt.cpp`` computes it: with the pair scores
    a = (0, 1/4, 1/2, 3/4, 1) (a pair's points over 2) and their empirical
    frequencies p^ over N pairs (an empty bin counts 0.001),

        LLR = N * sum_i p^_i * (ln p1_i - ln p0_i)

    where p_j is the maximum-likelihood distribution under H_j:

    * ``model="logistic"``: E[a] = s_j with s_j = 1 / (1 + 10^(-elo_j/400));
      p_i = p^_i / (1 + theta (a_i - s_j)), theta the root of
      sum_i p^_i (a_i - s_j) / (1 + theta (a_i - s_j)) = 0 (prop. 1.1).
    * ``model="normalized"`` (the default, as in fastchess): the elos are
      normalized Elo, t_j = (mu - 1/2) / sigma = sqrt(2) * elo_j / (800 / ln 10)
      for pairs; p is the fixed point of p_i = p^_i / (1 + theta phi_i) with
      phi_i = a_i - 1/2 - t_j sigma (1 + ((a_i - mu) / sigma)^2) / 2, mu and
      sigma those of the current p, theta solving
      sum_i p^_i phi_i / (1 + theta phi_i) = 0 (section 4.1).

    ``stop`` (default True): a run stops as soon as the test decides. With
    ``stop=False`` every scheduled game is played and counted in the
    statistics; the test is still decided at its first crossing (the same
    decision, after the same pairs, as a stopping run), and the LLR over
    every complete pair is reported beside it.

    >>> s = SPRT(elo0=0, elo1=10)
    >>> s.status(s.llr([10, 20, 40, 20, 10])), s.status(s.llr([0, 10, 300, 100, 40]))
    (None, 'H1')
    >>> SPRT.parse("elo1=20 stop=no").stop
    False
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"
    stop: bool = True

    def __post_init__(self) -> None:
        for k in ("elo0", "elo1", "alpha", "beta"):
            v = getattr(self, k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"SPRT {k} must be a finite number, not {v!r}")
        if self.elo0 >= self.elo1:
            raise ValueError(f"SPRT elo0 ({self.elo0}) must be less than elo1 ({self.elo1})")
        for k in ("alpha", "beta"):
            if not 0.0 < getattr(self, k) < 1.0:
                raise ValueError(f"SPRT {k} must be in (0, 1), not {getattr(self, k)}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError("SPRT alpha + beta must be less than 1")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"SPRT model must be 'normalized' or 'logistic', not {self.model!r}")
        if not isinstance(self.stop, bool):
            raise TypeError(f"SPRT stop must be True or False, not {self.stop!r}")

    @classmethod
    def parse(cls, items: Union[str, Sequence[str]]) -> "SPRT":
        """From ``"elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized stop=yes"``
        (any subset; the rest default; ``stop`` reads yes/no, true/false, on/off, 1/0).

        :raises ValueError: naming the bad item.
        """
        parts = items.replace(",", " ").split() if isinstance(items, str) else list(items)
        kw: dict[str, Any] = {}
        names = [f.name for f in dataclasses.fields(cls)]
        for item in parts:
            k, eq, v = item.partition("=")
            if not eq or k not in names:
                raise ValueError(f"SPRT: {item!r} is not one of {', '.join(n + '=...' for n in names)}")
            if k in kw:
                raise ValueError(f"SPRT: {k} is given twice")
            if k == "model":
                kw[k] = v
            elif k == "stop":
                flag = {"yes": True, "true": True, "on": True, "1": True,
                        "no": False, "false": False, "off": False, "0": False}.get(v.strip().lower())
                if flag is None:
                    raise ValueError(f"SPRT: {item!r}: stop must be yes or no")
                kw[k] = flag
            else:
                try:
                    kw[k] = float(v)
                except ValueError:
                    raise ValueError(f"SPRT: {item!r}: {k} must be a number") from None
        return cls(**kw)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, penta: Sequence[int]) -> float:
        """The LLR of pentanomial counts (pairs scoring 0, 1/2, 1, 3/2, 2 points)."""
        if len(penta) != 5:
            raise ValueError("pentanomial counts are five numbers")
        if sum(penta) == 0:
            return 0.0
        reg = [float(c) if c else 1e-3 for c in penta]
        total = sum(reg)
        phat = [c / total for c in reg]
        if self.model == "logistic":
            p0 = _mle_logistic(phat, _score_from_elo(self.elo0))
            p1 = _mle_logistic(phat, _score_from_elo(self.elo1))
        else:
            k = math.sqrt(2.0) * math.log(10.0) / 800.0
            p0 = _mle_normalized(phat, self.elo0 * k)
            p1 = _mle_normalized(phat, self.elo1 * k)
        return total * sum(q * (math.log(b) - math.log(a)) for q, a, b in zip(phat, p0, p1))

    def status(self, llr: float) -> Optional[str]:
        """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else None."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _pair_points(ra: float, rb: float) -> float:
    return 1.0 if ra > rb else 0.5 if ra == rb else 0.0


def _finite(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


def _pentanomial_stats(penta: Sequence[int]) -> dict[str, Any]:
    n = sum(penta)
    if n == 0:
        return {"score": None, "elo": None, "elo_lo": None, "elo_hi": None}
    mu = sum(c * a for c, a in zip(penta, PENTA_SCORES)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(penta, PENTA_SCORES)) / n
    half = _Z95 * math.sqrt(var / n)
    return {"score": mu, "elo": _finite(elo_from_score(mu)), "elo_lo": _finite(elo_from_score(mu - half)),
            "elo_hi": _finite(elo_from_score(mu + half))}


def _openskill(recs: Sequence[Mapping[str, Any]], labels: Sequence[str],
               index: Mapping[str, int]) -> list[dict[str, Any]]:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return [{"rating_mu": None, "rating_sigma": None} for _ in labels]
    model = PlackettLuce()
    rating = [model.rating(name=lab) for lab in labels]
    for r in recs:
        ret = r["returns"]
        seats = [index[s] for s in r["seats"]]
        teams = [[rating[a]] for a in seats]
        ranks: list[float] = [1.0 + sum(1 for y in ret if y > x) for x in ret]
        new = model.rate(teams, ranks=ranks)
        if len(set(seats)) == len(seats):
            for a, team in zip(seats, new):
                rating[a] = team[0]
            continue
        # an agent in several seats (fewer agents than seats): the mean of its updates
        got: dict[int, list[Any]] = {}
        for a, team in zip(seats, new):
            got.setdefault(a, []).append(team[0])
        for a, rs in got.items():
            x = rs[0]
            x.mu = sum(y.mu for y in rs) / len(rs)
            x.sigma = sum(y.sigma for y in rs) / len(rs)
            rating[a] = x
    return [{"rating_mu": x.mu, "rating_sigma": x.sigma, "rating_ordinal": x.mu - 3 * x.sigma} for x in rating]
