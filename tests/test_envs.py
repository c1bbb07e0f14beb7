"""tabuleiro.envs: PettingZoo's own api_test and seed_test on both AEC
environments, for both Capivárias decks and every Capulana player count,
wrapped and raw; rewards are the returns; observations are the tensors.
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra (in the test extra) is needed")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import tabuleiro  # noqa: E402
from tabuleiro.envs import capivarias_v0, capulana_v0, toy_v0  # noqa: E402

ENVS = [(capivarias_v0, {"expansion": False}), (capivarias_v0, {"expansion": True})] + [
    (capulana_v0, {"players": n}) for n in (2, 3, 4, 5)]
IDS = [f"{m.__name__.rsplit('.', 1)[1]}-{kw}" for m, kw in ENVS]
#: with every registered game's env at its defaults (toy_v0 is made from the registry like the others)
ALL = ENVS + [(toy_v0, {})]
ALL_IDS = IDS + ["toy_v0-{}"]


@pytest.mark.parametrize("mod,kw", ALL, ids=ALL_IDS)
def test_api(mod, kw):
    with warnings.catch_warnings():
        # dict observations with an action mask, as PettingZoo's own chess:
        # api_test warns that they are no Box and no ndarray
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(mod.env(**kw), num_cycles=200)
        api_test(mod.raw_env(**kw), num_cycles=200)


@pytest.mark.parametrize("mod,kw", ALL, ids=ALL_IDS)
def test_seed(mod, kw):
    seed_test(lambda: mod.env(**kw), num_cycles=200)


@pytest.mark.parametrize("mod,kw", ALL, ids=ALL_IDS)
def test_full_game_rewards_and_observations(mod, kw):
    env = mod.env(**kw, render_mode="ansi")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        totals[agent] += rew
        raw = env.unwrapped
        p = raw._index[agent]
        assert np.array_equal(obs["observation"], np.frombuffer(raw.state_obj.observation(p), np.float32))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == raw.state_obj.legal_actions()
        env.step(int(rng.choice(legal)))
        steps += 1
    st = env.unwrapped.state_obj
    assert st.is_terminal
    assert [totals[a] for a in env.possible_agents] == pytest.approx(st.returns())
    assert isinstance(env.render(), str)


def test_same_seed_same_deal_and_reset_continues():
    a, b = capivarias_v0.raw_env(), capivarias_v0.raw_env()
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.state_obj == b.state_obj
    a.reset()
    b.reset()
    assert a.state_obj == b.state_obj
    b.reset(seed=6)
    assert a.state_obj != b.state_obj


def test_spaces_cached_and_names():
    env = capulana_v0.raw_env(players=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.observation_space("player_1") is env.observation_space("player_1")
    assert env.observation_space("player_0")["observation"].shape == (4135,)
    assert env.metadata["name"] == "capulana_v0"
    assert capivarias_v0.raw_env.metadata["name"] == "capivarias_v0"
    with pytest.raises(ValueError):
        capivarias_v0.raw_env(render_mode="human")


def test_wrapped_env_keeps_pettingzoos_wrappers_and_their_rules():
    """env() is PettingZoo's three wrappers (isinstance holds); the loop's
    attributes are read from the raw env, with OrderEnforcing's rule kept:
    nothing is read before reset(), an illegal move ends the game at -1 for
    its maker, an out-of-range action asserts."""
    from pettingzoo.utils import wrappers

    import pickle

    env = capivarias_v0.env()
    assert isinstance(env, wrappers.OrderEnforcingWrapper) and str(env) == "capivarias_v0"
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, wrappers.TerminateIllegalWrapper)
    for name in ("rewards", "terminations", "agent_selection", "agents", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)
    env.reset(seed=3)
    raw = env.unwrapped
    assert env.agent_selection == raw.agent_selection and env.rewards is raw.rewards
    copy = pickle.loads(pickle.dumps(env))   # the wrapper classes are found by name
    assert copy.agent_selection == env.agent_selection and copy.unwrapped.state_obj == raw.state_obj
    copy.rewards = {"shadow": 1.0}   # as with PettingZoo's wrappers: set on the wrapper, seen there only
    assert copy.rewards == {"shadow": 1.0} and "shadow" not in copy.unwrapped.rewards
    assert env.env.terminations is raw.terminations and env._cumulative_rewards is raw._cumulative_rewards
    with pytest.raises(AssertionError):
        env.step(10**6)
    obs = env.last()[0]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    mover = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert env.terminations[mover] and env._cumulative_rewards[mover] == -1
    # the observation of a new position is a new array (an RL buffer may keep the old one)
    env.reset(seed=4)
    first = env.last()[0]["observation"]
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert env.last()[0]["observation"] is not first


def test_observe_into_masks_only_the_player_to_move():
    """The env's masks start as np.empty: State.observe_into must zero a
    non-mover's and a finished game's mask, and check both buffers (and the
    player) before it writes either."""
    from tabuleiro import capivarias

    s = capivarias.new_game(seed=8)
    p = s.current_player
    obs, mask = np.full(418, 7.0, np.float32), np.full(3248, 9, np.int8)
    assert s.observe_into(1 - p, obs, mask) == 0 and not mask.any()
    assert np.array_equal(obs, np.frombuffer(s.observation(1 - p), np.float32))
    mask[:] = 9
    assert s.observe_into(p, obs, mask) == len(s.legal_actions())
    assert bytes(mask.view(np.uint8)) == s.legal_action_mask()
    while not s.is_terminal:
        s.push(s.legal_actions()[0])
    mask[:] = 9
    assert s.observe_into(0, obs, mask) == 0 and not mask.any()
    untouched = np.full(418, 7.0, np.float32)
    for bad_player, bad_mask in ((True, mask), (2, mask), (0, np.zeros(3248, np.int32)), (0, np.zeros(10, np.int8))):
        with pytest.raises(ValueError):
            s.observe_into(bad_player, untouched, bad_mask)
        assert (untouched == 7.0).all()


def _contains_inputs():
    from hypothesis import strategies as st
    ints = st.integers(min_value=-(2 ** 70), max_value=2 ** 70) | st.integers(min_value=-3, max_value=3260)
    dtypes = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.intp]
    def np_int(pair):
        v, dt = pair
        info = np.iinfo(dt)
        return dt(min(max(v, info.min), info.max))
    return (ints | st.booleans() | st.none() | st.text(max_size=3)
            | st.floats(allow_nan=True) | st.floats(min_value=0, max_value=3300).map(np.float64)
            | st.tuples(st.integers(min_value=-300, max_value=3300), st.sampled_from(dtypes)).map(np_int)
            | st.integers(min_value=-3, max_value=3260).map(np.array)
            | st.integers(min_value=-3, max_value=3260).map(lambda v: np.array([v])))


def test_action_space_contains_answers_as_gymnasiums_discrete():
    """The action space's fast contains (a Python int or np.int64 in one
    comparison) answers every input as gymnasium's Discrete(n) does."""
    from gymnasium import spaces
    from hypothesis import given, settings

    for mod, kw in ENVS[:1] + ENVS[-1:]:
        space = mod.raw_env(**kw).action_space("player_0")
        ref = spaces.Discrete(int(space.n))
        assert isinstance(space, spaces.Discrete) and space == ref

        @settings(max_examples=400, deadline=None)
        @given(_contains_inputs())
        def agrees(x):
            assert space.contains(x) is bool(ref.contains(x)), x
            assert (x in space) is bool(x in ref), x

        agrees()
        for x in (0, space.n - 1, space.n, -1, np.int64(space.n), True, 2 ** 63, 2.0, np.int32(7)):
            assert space.contains(x) is bool(ref.contains(x)), x


def test_actions_and_seeds_are_taken_as_given_or_refused():
    """raw_env.step takes integer ids only (before: a + 0.9 played a, and 2**40
    raised OverflowError); reset(seed=) takes integers in [0, 2**64), numpy's
    too (before: -5 dealt the game of 5, NaN a different game each time, and
    np.int64 raised TypeError); observations are read-only (before: a change
    to the cached arrays showed in the next observe)."""
    from tabuleiro import IllegalMoveError

    env = capivarias_v0.raw_env()
    env.reset(seed=3)
    before = env.state_obj.to_dict()
    obs = env.observe(env.agent_selection)
    a = int(obs["action_mask"].nonzero()[0][0])
    for bad in (a + 0.9, float(a), np.float64(a), "1", None, True, np.True_):
        with pytest.raises(TypeError, match="integer id"):
            env.step(bad)
    for bad in (2 ** 40, -1, 3248):
        with pytest.raises(IllegalMoveError, match=f"illegal action {bad}"):
            env.step(bad)
    assert env.state_obj.to_dict() == before
    with pytest.raises(ValueError, match="read-only"):
        obs["observation"][0] = 99.0
    with pytest.raises(ValueError, match="read-only"):
        obs["action_mask"][:] = 1
    env.step(np.int64(a))
    assert env.state_obj.to_dict() != before

    def deal(seed):
        e = capivarias_v0.raw_env()
        e.reset(seed=seed)
        return e.state_obj.to_dict()
    assert deal(np.int64(5)) == deal(5) == deal(np.uint64(5))
    for bad in (-5, 2 ** 64, float("nan"), 5.0, True):
        with pytest.raises(ValueError, match="seed"):
            deal(bad)


def _plain_chain(raw):
    from pettingzoo.utils import wrappers
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)))


def _record(env, fn):
    """What a call did: its result or exception, the warnings it gave (Python's
    and PettingZoo's EnvLogger's), and the env's and wrappers' state after."""
    from pettingzoo.utils.env_logger import EnvLogger

    EnvLogger.flush()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = ("ok", fn())
        except Exception as e:          # noqa: BLE001 - every outcome is compared
            out = ("raised", type(e).__name__, str(e))
    logged = [str(m) for m in EnvLogger.mqueue]
    EnvLogger.flush()
    def plain(x):
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items()}
        if isinstance(x, tuple):
            return tuple(plain(v) for v in x)
        if isinstance(x, np.ndarray):
            return ("array", x.dtype.str, x.tobytes())
        return x
    ti = env.env.env
    after = (env.agent_selection, list(env.agents), dict(env.rewards), dict(env.terminations),
             dict(env.truncations), dict(env._cumulative_rewards), ti._terminated, plain(ti._prev_obs),
             env._has_updated) if env._has_reset else None
    return plain(out), [str(w.message) for w in caught], logged, plain(after)


@pytest.mark.parametrize("mod,kw", [ENVS[0], ENVS[2], ENVS[-1], ALL[-1]], ids=[IDS[0], IDS[2], IDS[-1], ALL_IDS[-1]])
def test_wrapped_env_fast_path_does_what_pettingzoos_wrappers_do(mod, kw):
    """env()'s outer wrapper runs observe, last and the common step in one
    call each; the same random games through it and through PettingZoo's
    plain three wrappers, with illegal ids, out-of-range ids, floats, None
    for live and dead agents, steps after the end and calls before reset,
    give the same results, exceptions, warnings and state at every call."""
    rng = np.random.default_rng(11)
    fast, plain = mod.env(**kw), _plain_chain(mod.raw_env(**kw))
    for env in (fast, plain):
        assert _record(env, lambda: env.step(0))[0][0] == "raised"          # before reset
    for game in range(6):
        for env in (fast, plain):
            env.reset(seed=game)
        for _ in range(400):
            kind = rng.integers(12)
            mask = plain.unwrapped.observe(plain.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            choice = int(rng.integers(len(legal))) if len(legal) else 0
            def act(env):
                if kind == 0:
                    return env.step(None)
                if kind == 1:
                    return env.step(int(rng.integers(0, len(mask))))      # most likely illegal
                if kind == 2:
                    return env.step(len(mask) + 3)                        # out of range
                if kind == 3:
                    return env.step(1.0)
                if kind == 4:
                    return env.observe(env.possible_agents[-1])
                a = int(legal[choice]) if len(legal) else None
                return env.step(np.int64(a) if kind % 2 and a is not None else a)
            look = rng.integers(5) > 0          # now and then a step with no last() before it
            state = rng.bit_generator.state
            r_plain = (_record(plain, plain.last) if look else None, _record(plain, lambda: act(plain)))
            rng.bit_generator.state = state
            r_fast = (_record(fast, fast.last) if look else None, _record(fast, lambda: act(fast)))
            assert r_fast == r_plain
            if not plain.agents:
                assert _record(fast, lambda: fast.step(None)) == _record(plain, lambda: plain.step(None))
                break
    # a value assigned on the wrapper (PettingZoo lets it shadow the raw env's) is read as PettingZoo reads it
    for env in (fast, plain):
        env.reset(seed=99)
        env._cumulative_rewards = {a: 5.0 for a in env.possible_agents}
        env.agent_selection = env.possible_agents[-1]
    assert _record(fast, fast.last) == _record(plain, plain.last)
    for env in (fast, plain):
        env.agents = []
    a = int(np.flatnonzero(plain.unwrapped.observe(plain.unwrapped.agent_selection)["action_mask"])[0])
    assert _record(fast, lambda: fast.step(a)) == _record(plain, lambda: plain.step(a))


# --- the envs are made from the registry (issue 27) ------------------------------------------------


def test_every_registered_game_has_an_env_importable_every_way():
    import importlib

    import tabuleiro.envs

    assert tabuleiro.envs.__all__ == [f"{g}_v0" for g in tabuleiro.games()]
    for g in tabuleiro.games():
        name = f"{g}_v0"
        mod = importlib.import_module(f"tabuleiro.envs.{name}")
        assert getattr(tabuleiro.envs, name) is mod and name in dir(tabuleiro.envs)
        assert mod.__name__ == f"tabuleiro.envs.{name}" and mod.__all__ == ["env", "raw_env"]
        assert mod.raw_env.metadata == {"render_modes": ["ansi"], "name": name, "is_parallelizable": False}
        assert mod.raw_env.__module__ == mod.__name__ and mod.raw_env.__qualname__ == "raw_env"
        raw = mod.raw_env()
        assert raw.game == tabuleiro.load_game(g) and str(mod.env()) == name
    assert capulana_v0 is importlib.import_module("tabuleiro.envs.capulana_v0")


def test_the_import_forms_in_a_fresh_interpreter():
    """``import tabuleiro.envs.x_v0`` and ``from tabuleiro.envs import x_v0``
    as the first import of a process (nothing made beforehand)."""
    import subprocess
    import sys

    code = ("import tabuleiro.envs.capulana_v0\n"
            "e = tabuleiro.envs.capulana_v0.env(players=4)\n"
            "from tabuleiro.envs import capivarias_v0\n"
            "import tabuleiro.envs.toy_v0 as t\n"
            "import pickle\n"
            "r = pickle.loads(pickle.dumps(t.raw_env()))\n"
            "print(len(e.possible_agents), capivarias_v0.raw_env.metadata['name'], type(r).__module__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["4", "capivarias_v0", "tabuleiro.envs.toy_v0"]


def test_no_env_for_a_name_that_is_not_a_registered_game():
    import importlib

    import tabuleiro.envs

    for bad in ("chess_v0", "capulana_v1", "capulana", "_aec_v0"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(f"tabuleiro.envs.{bad}")
        with pytest.raises(AttributeError, match="has no attribute"):
            getattr(tabuleiro.envs, bad)


def test_env_parameters_are_the_games_rules_parameters():
    """raw_env/env take render_mode and the game's param_specs() that are not
    a tool's, with their defaults, by keyword or position as before; the
    rest is a TypeError naming what they take (legacy_determinize picks a
    determinization, which no environment uses, and was never taken)."""
    import inspect

    for g in tabuleiro.games():
        mod = getattr(tabuleiro.envs, f"{g}_v0")
        specs = [p for p in tabuleiro.load_game(g).param_specs() if not p.tool]
        sig = inspect.signature(mod.raw_env)
        assert list(sig.parameters) == ["render_mode"] + [p.name for p in specs]
        assert [sig.parameters[p.name].default for p in specs] == [p.default for p in specs]
        assert inspect.signature(mod.env) == sig
    assert capivarias_v0.raw_env(None, True).game.params == {"expansion": True, "first_player": 0}
    assert capivarias_v0.raw_env(first_player=1).game.params == {"expansion": False, "first_player": 1}
    assert capulana_v0.env(players=5).unwrapped.game.num_players == 5
    for mod, bad in ((capulana_v0, {"legacy_determinize": True}), (capivarias_v0, {"players": 3}),
                     (toy_v0, {"expansion": True})):
        with pytest.raises(TypeError, match="takes the parameters render_mode"):
            mod.raw_env(**bad)
        with pytest.raises(TypeError, match="takes the parameters render_mode"):
            mod.env(**bad)
    with pytest.raises(TypeError, match="too many positional"):
        toy_v0.raw_env(None, 3)
    with pytest.raises(ValueError, match="players must be in"):
        capulana_v0.raw_env(players=6)
    with pytest.raises(TypeError, match="players must be an integer"):
        capulana_v0.raw_env(players=True)


def test_env_docstrings_state_the_spaces_and_parameters():
    for g in tabuleiro.games():
        mod = getattr(tabuleiro.envs, f"{g}_v0")
        game = tabuleiro.load_game(g)
        doc = mod.__doc__
        assert f"``{g}_v0``" in doc and game.title in doc
        assert f"Discrete({game.num_distinct_actions})" in doc
        assert f"int8 ({game.num_distinct_actions},)" in doc and str(game.observation_size) in doc
        for p in game.param_specs():
            assert (f"``{p.name}``" in doc) == (not p.tool)
    assert "2161/3146/4135/5128 for 2..5 players" in capulana_v0.__doc__
    assert "summing to 1.0" in capulana_v0.__doc__ and "summing to 0.0" in capivarias_v0.__doc__


def test_docs_name_every_env():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text("utf-8")
    for g in tabuleiro.games():
        assert f"`{g}_v0`" in text, g


def test_toy_plays_a_full_game_through_the_wrapped_env():
    env = toy_v0.env()
    env.reset(seed=9)
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    st = env.unwrapped.state_obj
    assert st.is_terminal and len(st.history()) == tabuleiro.load_game("toy").info.max_game_length
    assert sum(st.returns()) == tabuleiro.load_game("toy").info.utility_sum
