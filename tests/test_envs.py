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

from tabuleiro.envs import capivarias_v0, capulana_v0  # noqa: E402

ENVS = [(capivarias_v0, {"expansion": False}), (capivarias_v0, {"expansion": True})] + [
    (capulana_v0, {"players": n}) for n in (2, 3, 4, 5)]
IDS = [f"{m.__name__.rsplit('.', 1)[1]}-{kw}" for m, kw in ENVS]


@pytest.mark.parametrize("mod,kw", ENVS, ids=IDS)
def test_api(mod, kw):
    with warnings.catch_warnings():
        # dict observations with an action mask, as PettingZoo's own chess:
        # api_test warns that they are no Box and no ndarray
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(mod.env(**kw), num_cycles=200)
        api_test(mod.raw_env(**kw), num_cycles=200)


@pytest.mark.parametrize("mod,kw", ENVS, ids=IDS)
def test_seed(mod, kw):
    seed_test(lambda: mod.env(**kw), num_cycles=200)


@pytest.mark.parametrize("mod,kw", ENVS, ids=IDS)
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


@pytest.mark.parametrize("mod,kw", [ENVS[0], ENVS[2], ENVS[-1]], ids=[IDS[0], IDS[2], IDS[-1]])
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
