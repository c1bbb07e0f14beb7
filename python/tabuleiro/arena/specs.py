"""Arena agents from spec strings or objects (:func:`parse_agent`).

An :class:`AgentEntry` is an agent's label and how a worker process rebuilds
it: a builtin agent, a ``module:attr`` spec imported again in the worker, or
a user object.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import typing
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Union

from .. import agents as _agents
from .._fields import parse_loose as _parse_loose
from .engines import Engine
from .scheduling import _MASK

__all__ = ["AgentEntry", "parse_agent"]


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NONE = {"none", "default", "null"}


def _search_fields() -> dict[str, Any]:
    """SearchAgent's knobs and their types (read from the dataclass, so new knobs appear here)."""
    hints = typing.get_type_hints(_agents.SearchAgent)
    return {f.name: hints[f.name] for f in dataclasses.fields(_agents.SearchAgent)}


def _parse_typed(spec: str, key: str, text: str, typ: Any) -> Any:
    optional = False
    if typing.get_origin(typ) is Union:
        args = [a for a in typing.get_args(typ) if a is not type(None)]
        optional = len(args) < len(typing.get_args(typ))
        typ = args[0]
    low = text.strip().lower()
    if optional and low in _NONE:
        return None
    what = {int: "an integer", float: "a number", bool: "true or false", str: "a word"}.get(typ, str(typ))
    bad = ValueError(f"agent spec {spec!r}: {key}={text!r} is not valid: {key} must be {what}"
                     + (" or none (the game's default)" if optional else ""))
    if typ is bool:
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise bad
    if typ is int:
        try:
            return int(text)
        except ValueError:
            pass
        try:
            f = float(text)
        except ValueError:
            raise bad from None
        if math.isfinite(f) and f == int(f):
            return int(f)
        raise bad
    if typ is float:
        try:
            return float(text)
        except ValueError:
            raise bad from None
    return text


def _split_params(spec: str, text: str) -> dict[str, str]:
    """``key=value`` items separated by commas (or colons, as ``tabuleiro play --seats`` writes them)."""
    out: dict[str, str] = {}
    if not text.strip():
        return out
    for part in text.replace(":", ",").split(","):
        if "=" not in part:
            raise ValueError(f"agent spec {spec!r}: {part.strip()!r} is not key=value")
        k, v = part.split("=", 1)
        k = k.strip()
        if not k.isidentifier():
            raise ValueError(f"agent spec {spec!r}: {k!r} is not a parameter name")
        if k in out:
            raise ValueError(f"agent spec {spec!r}: {k} is given twice")
        out[k] = v.strip()
    return out


def _fmt(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _canonical_label(agent: _agents.Agent) -> str:
    """``name:knob=value,...`` with the knobs that differ from the defaults (the
    iteration budget of a search is always shown), in the dataclass's order."""
    name = agent.name
    if isinstance(agent, _agents.LevelAgent):
        return f"level:{agent.level}" + (f",seed={agent.seed}" if agent.seed else "")
    parts = []
    for f in dataclasses.fields(agent):
        if f.name == "kind":
            continue
        v = getattr(agent, f.name)
        if v != f.default or (f.name == "iterations" and isinstance(agent, _agents.SearchAgent)):
            if f.name == "seed" and v == 0:
                continue
            parts.append(f"{f.name}={_fmt(v)}")
    return name + (":" + ",".join(parts) if parts else "")


@dataclass(frozen=True)
class AgentEntry:
    """One agent of an arena: its ``label`` (the name in results and tables),
    and how to rebuild it in a worker: a builtin ``agent`` (an ``agents.Agent``),
    a ``module:attr`` ``spec`` with keyword ``kwargs``, a user ``obj``, or an
    external ``engine`` (:class:`~tabuleiro.arena.engines.Engine`).

    >>> e = AgentEntry("engine:tab", engine=Engine(cmd=["tabuleiro", "engine"], name="tab", seed=5))
    >>> e.seed, e.engine.cmd
    (5, ('tabuleiro', 'engine'))
    """

    label: str
    agent: Optional[_agents.Agent] = None
    spec: Optional[str] = None
    obj: Any = None
    engine: Optional[Engine] = None

    @property
    def seed(self) -> int:
        """The agent's own seed (mixed into its per-game seeds)."""
        if self.agent is not None:
            return self.agent.seed
        if self.engine is not None:
            return self.engine.seed
        obj = self.obj[0] if isinstance(self.obj, tuple) and self.spec is not None else self.obj
        s = getattr(obj, "seed", 0)
        return s if isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= _MASK else 0

    def __reduce__(self) -> Any:
        # a module:attr agent travels as its spec and is imported again in the worker
        if self.spec is not None:
            return (_entry_from_spec, (self.spec, self.label))
        return (AgentEntry, (self.label, self.agent, None, self.obj, self.engine))


def _entry_from_spec(spec: str, label: str) -> AgentEntry:
    return dataclasses.replace(parse_agent(spec), label=label)


def _import_attr(spec: str, path: str) -> Any:
    module, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module)
    except Exception as e:     # an arbitrary module may raise anything on import
        raise ValueError(f"agent spec {spec!r}: cannot import {module!r} ({type(e).__name__}: {e})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"agent spec {spec!r}: module {module!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def _check_factory(spec: str, where: str, factory: Any, kwargs: Mapping[str, Any]) -> None:
    """A ``module:attr`` factory must take ``seed=`` and the spec's keywords
    and make an object with ``choose(state)``: checked once, when the spec is
    read, so a function that is not an agent factory (``json:dumps``) is
    refused before any game. Its signature is checked first, so a function
    that cannot take those keywords is never called."""
    call = f"{where}(seed=..." + "".join(f", {k}=..." for k in kwargs) + ")"
    import inspect
    try:
        inspect.signature(factory).bind(seed=0, **kwargs)
    except TypeError as e:
        raise ValueError(f"agent spec {spec!r}: {where} is not an agent factory: it cannot be called as "
                         f"{call} ({e})") from None
    except ValueError:      # no signature to read (some builtins): the call below decides
        pass
    try:
        made = factory(seed=0, **kwargs)
    except Exception as e:
        raise ValueError(f"agent spec {spec!r}: {where} is not an agent factory: {call} failed "
                         f"({type(e).__name__}: {e})") from None
    if not callable(getattr(made, "choose", None)):
        raise ValueError(f"agent spec {spec!r}: {where} is not an agent: it has no choose(state) and "
                         f"{call} made a {type(made).__name__} without one")


def parse_agent(spec: Any, engines: Optional[Mapping[str, Engine]] = None) -> AgentEntry:
    """An arena agent from a spec string or an object.

    Spec strings:

    * ``random``, ``greedy``, ``flatmc``, ``mcts``, ``ismcts``, each optionally
      followed by ``:key=value,...`` setting any knob of ``agents.make`` (for
      the searches: ``kind, iterations, time, c, rollout, shaped, prior,
      horizon, threads, max_nodes, seed``). Values are read as the knob's
      type: integers (``2000``, ``1e4``), numbers, ``true``/``false`` (also
      yes/no, on/off), ``none`` for the game's default of an optional knob.
    * ``level:N`` (or ``level:N,seed=S``): a strength level, ``agents.make("level", level=N)``.
    * ``package.module:attr[:key=value,...]``: a user object with
      ``choose(state)``, or a factory (a class or function) called as
      ``attr(seed=..., **kwargs)`` once per game.
    * ``engine:NAME``: the external engine ``engines[NAME]`` (an
      :class:`~tabuleiro.arena.engines.Engine`; ``--engine NAME=CMD``).

    Objects: an ``agents.Agent``, an ``Engine``, anything with
    ``choose(state)``, or a ``(label, object)`` pair.

    :raises ValueError: naming the bad part of the spec.

    >>> parse_agent("greedy").agent
    GreedyAgent(seed=0)
    >>> parse_agent("ismcts:iterations=lots")
    Traceback (most recent call last):
    ...
    ValueError: agent spec 'ismcts:iterations=lots': iterations='lots' is not valid: iterations must be an integer
    """
    if isinstance(spec, AgentEntry):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        return dataclasses.replace(parse_agent(spec[1], engines), label=spec[0])
    if isinstance(spec, Engine):
        return AgentEntry(spec.label, engine=spec)
    if isinstance(spec, _agents.Agent):
        return AgentEntry(_canonical_label(spec), agent=spec)
    if not isinstance(spec, str):
        if callable(getattr(spec, "choose", None)):
            name = getattr(spec, "label", None) or f"{type(spec).__module__}:{type(spec).__qualname__}"
            return AgentEntry(str(name), obj=spec)
        raise ValueError(f"an agent is a spec string, an object with choose(state) or a (label, agent) "
                         f"pair, not {type(spec).__name__} {spec!r:.60}")
    text = spec.strip()
    if not text:
        raise ValueError("an empty agent spec")
    name, sep, rest = text.partition(":")
    name = name.strip()
    if name == "engine" and sep:
        known = dict(engines or {})
        key = rest.strip()
        if key not in known:
            raise ValueError(f"agent spec {spec!r}: no engine named {key!r} "
                             + (f"(defined: {', '.join(sorted(known))})" if known else
                                "(define it with --engine NAME=CMD, or engines={NAME: Engine(...)})"))
        eng = known[key]
        if not isinstance(eng, Engine):
            raise ValueError(f"engine {key!r} is a {type(eng).__name__}, not an arena.Engine")
        if eng.name != key:
            eng = dataclasses.replace(eng, name=key)
        return AgentEntry(eng.label, engine=eng)
    if name == "level":
        rest = rest.replace(":", ",")          # level:7:seed=3, as tabuleiro play saves a seat
        first, _, more = rest.partition(",")
        raw = _split_params(spec, more if "=" not in first else rest)
        if "=" not in first:
            if "level" in raw:
                raise ValueError(f"agent spec {spec!r}: level is given twice")
            raw["level"] = first.strip()
        if not raw.get("level"):
            raise ValueError(f"agent spec {spec!r}: which level? (level:1 .. level:10)")
        try:
            lv = {k: int(v) for k, v in raw.items()}
            agent = _agents.make("level", **lv)
        except (TypeError, ValueError) as e:
            raise ValueError(f"agent spec {spec!r}: {e}") from None
        return AgentEntry(_canonical_label(agent), agent=agent)
    if name in _agents.NAMES:
        raw = _split_params(spec, rest)
        if name in ("random", "greedy"):
            fields = {"seed": int}
        else:
            fields = _search_fields()
        unknown = [k for k in raw if k not in fields]
        if unknown:
            raise ValueError(f"agent spec {spec!r}: {name} has no parameter {unknown[0]!r}; "
                             f"it takes {', '.join(fields)}")
        params = {k: _parse_typed(spec, k, v, fields[k]) for k, v in raw.items()}
        kind = params.pop("kind", name)
        try:
            agent = _agents.make(kind, **params) if name not in ("random", "greedy") else _agents.make(name, **params)
        except (TypeError, ValueError) as e:
            raise ValueError(f"agent spec {spec!r}: {e}") from None
        return AgentEntry(_canonical_label(agent), agent=agent)
    if not sep or "=" in name or not all(p.isidentifier() for p in name.split(".")):
        raise ValueError(f"unknown agent {name!r} in spec {spec!r}: choose from {', '.join(_agents.NAMES)}, "
                         f"or give a user agent as package.module:attr")
    attr, _, params_text = rest.partition(":")
    if not attr or not all(p.isidentifier() for p in attr.split(".")):
        raise ValueError(f"agent spec {spec!r}: {attr!r} is not an attribute name (module:attr)")
    kwargs = {k: _parse_loose(v) for k, v in _split_params(spec, params_text).items()}
    obj = _import_attr(spec, f"{name}:{attr}")
    if isinstance(obj, _agents.Agent) and not kwargs:
        return AgentEntry(text, agent=obj, spec=text)
    if not callable(getattr(obj, "choose", None)) or isinstance(obj, type):
        if not callable(obj):
            raise ValueError(f"agent spec {spec!r}: {name}:{attr} has no choose(state) and is not a factory")
        _check_factory(spec, f"{name}:{attr}", obj, kwargs)
    elif kwargs:
        raise ValueError(f"agent spec {spec!r}: {name}:{attr} is an agent object; parameters need a factory")
    return AgentEntry(text, spec=text, obj=(obj, kwargs))
