"""tabuleiro.vector: n games stepped in C (csrc/batch.c).

Checks against the one-game API: each slot follows exactly the game its
own generator starts, the outputs (observations, masks, legal lists,
rewards, done, lengths) equal what State gives, auto-reset, checked actions,
and independence from n and threads.
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="tabuleiro.vector needs numpy (the test extra installs it)")

import tabuleiro  # noqa: E402
from tabuleiro import IllegalMoveError  # noqa: E402

CASES = [("capivarias", {}), ("capivarias", {"expansion": True}), ("capulana", {"players": 2}),
         ("capulana", {"players": 5}), ("toy", {})]


def _check_slot(b, i, st):
    p = st.current_player
    assert b.player[i] == p
    assert np.array_equal(b.obs[i], np.frombuffer(st.observation(p), np.float32))
    legal = st.legal_actions()
    assert b.num_legal[i] == len(legal)
    assert list(b.legal[i, : len(legal)]) == legal
    assert bytes(b.mask[i]) == st.legal_action_mask()


@pytest.mark.parametrize("name,params", CASES)
@pytest.mark.parametrize("mode", ["c-random", "numpy"])
def test_batch_matches_states(name, params, mode):
    game = tabuleiro.load_game(name, **params)
    n = 6
    b = game.batch(n, seed=11)
    shadows = [b.state(i) for i in range(n)]
    for i in range(n):
        _check_slot(b, i, shadows[i])
    rng = np.random.default_rng(5)
    ended: set[int] = set()
    # long enough that every game ends at least once (Capulana: up to max_game_length actions)
    steps = 120 if name != "capulana" else game.info.max_game_length + 10
    for _ in range(steps):
        before = [s.clone() for s in shadows]
        if mode == "numpy":
            acts = b.sample_actions(rng)
            b.step(acts)
        else:
            b.step()
        for i in range(n):
            s = before[i]
            if mode == "numpy":
                s.push(int(acts[i]))
            else:   # C chose the action: some legal action of the slot's last position gives what it shows
                after = []
                for a in s.legal_actions():
                    c = s.clone()
                    c.push(a)
                    if (c.is_terminal and b.done[i] and list(b.rewards[i]) == pytest.approx(c.returns())
                            and b.length[i] == len(c.history())) or (not b.done[i] and c._same_position(b.state(i))):
                        after.append(c)
                assert after, (name, i, "the step is not one legal action from the slot's position")
                s = after[0]
            if b.done[i]:
                ended.add(i)
                assert s.is_terminal
                assert list(b.rewards[i]) == pytest.approx(s.returns())
                assert b.length[i] == len(s.history())
                assert b.length[i] >= 1
                shadows[i] = b.state(i)
                assert shadows[i].history() == []
            else:
                assert not b.rewards[i].any()
                assert s._same_position(b.state(i))
                shadows[i] = s
            _check_slot(b, i, shadows[i])
    assert ended == set(range(n))   # every slot finished a game and was reset


def test_random_steps_are_legal_and_games_end():
    game = tabuleiro.load_game("toy")
    b = game.batch(32, seed=3)
    prev = [b.state(i) for i in range(32)]
    ended = 0
    for _ in range(40):
        b.step()
        for i in range(32):
            if b.done[i]:
                ended += 1
                assert b.length[i] <= game.info.max_game_length
                assert b.rewards[i].sum() == pytest.approx(0.0)   # Toy is zero-sum
            else:   # one legal action was applied
                cur = b.state(i)
                assert any(prev[i].clone()._apply_action(a) == 0 and _apply(prev[i], a)._same_position(cur)
                           for a in prev[i].legal_actions())
            prev[i] = b.state(i)
    assert ended > 0


def _apply(st, a):
    c = st.clone()
    c.push(a)
    return c


def test_illegal_action_changes_nothing():
    game = tabuleiro.load_game("capivarias")
    b = game.batch(4, seed=1)
    before = [b.state(i)._encode() for i in range(4)]
    acts = b.sample_actions(0)
    acts[2] = 0 if b.mask[2, 0] == 0 else 1
    assert b.mask[2, acts[2]] == 0
    with pytest.raises(IllegalMoveError, match="game 2"):
        b.step(acts)
    assert [b.state(i)._encode() for i in range(4)] == before
    with pytest.raises(ValueError, match="shape"):
        b.step(acts[:3])


def test_independent_of_n_and_threads():
    game = tabuleiro.load_game("capivarias")
    runs = []
    for n, threads in [(8, 1), (8, 2), (16, 4)]:
        b = game.batch(n, seed=42, threads=threads)
        trace = []
        for _ in range(60):
            b.step()
            trace.append((b.obs[:8].copy(), b.done[:8].copy(), b.rewards[:8].copy()))
        runs.append(trace)
    for other in runs[1:]:
        for (o1, d1, r1), (o2, d2, r2) in zip(runs[0], other):
            assert np.array_equal(o1, o2) and np.array_equal(d1, d2) and np.array_equal(r1, r2)


def test_reset_with_seed_repeats():
    game = tabuleiro.load_game("capulana", players=3)
    b = game.batch(5, seed=1)
    b.reset(seed=9)
    first = b.obs.copy()
    for _ in range(10):
        b.step()
    b.reset(seed=9)
    assert np.array_equal(first, b.obs)
    assert not b.done.any() and not b.length.any()


def test_vector_env():
    from tabuleiro.vector import VectorEnv

    env = VectorEnv(tabuleiro.load_game("capivarias"), 4, seed=2)
    obs, info = env.reset(seed=3)
    assert obs["observation"].shape == (4, 418) and obs["action_mask"].dtype == np.int8
    acts = env.batch.sample_actions(1)
    obs, rew, term, trunc, info = env.step(acts)
    assert rew.shape == (4, 2) and term.shape == trunc.shape == (4,)
    if env.single_observation_space is not None:
        assert env.single_observation_space["observation"].contains(obs["observation"][0])
