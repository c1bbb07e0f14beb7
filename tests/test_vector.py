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
from tabuleiro.vector import VectorEnv  # noqa: E402

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


def test_actions_are_taken_as_given_or_refused():
    """Actions are never cast: a float, a value that would wrap in int32, a
    uint64, NaN or an id out of range is refused at the entry (and no game
    moves); any integer dtype of in-range legal ids plays those ids. (Before:
    np.ascontiguousarray(..., int32) truncated a + 0.7 and wrapped
    a + 2**32 onto the legal ids, and played them.)"""
    game = tabuleiro.load_game("capivarias")
    b = game.batch(4, seed=7)
    acts = b.sample_actions(seed=1)
    before = [b.state(i)._encode() for i in range(4)]
    for bad in (acts + 0.7, acts.astype(np.float32), np.full(4, np.nan), acts.astype(bool), acts.astype(object),
                [int(a) for a in acts[:3]] + [2 ** 70], [True] + [int(a) for a in acts[1:]],
                np.ma.masked_array(acts, mask=[0, 1, 0, 0])):
        with pytest.raises(TypeError, match="actions must be (integers|a plain integer array)"):
            b.step(bad)
    wrapped = acts.astype(np.int64) + 2 ** 32
    with pytest.raises(IllegalMoveError, match=f"game 0: action {2 ** 32 + int(acts[0])} is not legal"):
        b.step(wrapped)
    with pytest.raises(IllegalMoveError, match="game 3: action -1 is not legal"):
        b.step(np.r_[acts[:3], -1].astype(np.int64))
    with pytest.raises(IllegalMoveError, match="is not legal"):
        b.step(acts.astype(np.uint64) + np.uint64(2 ** 63))
    illegal_first = np.r_[acts[:3], 99999].astype(np.int64)
    illegal_first[0] = 0 if b.mask[0, 0] == 0 else 1
    assert b.mask[0, illegal_first[0]] == 0
    for dtype in (np.int32, np.int64):      # the first game whose action is not legal, whatever the dtype
        with pytest.raises(IllegalMoveError, match="game 0: "):
            b.step(illegal_first.astype(dtype))
    assert [b.state(i)._encode() for i in range(4)] == before
    expected = [_apply(b.state(i), int(acts[i]))._encode() for i in range(4)]
    b.step([int(a) for a in acts])          # a list of ints, as an int64 array
    got = [b.state(i)._encode() for i in range(4)]
    for i in range(4):
        if not b.done[i]:
            assert got[i] == expected[i]
    acts = b.sample_actions(seed=2)
    b.step(acts.astype(np.int16))
    with pytest.raises(ValueError, match="seed"):
        b.sample_actions(seed=None)


def test_the_buffers_are_read_only_and_cannot_be_scribbled_on():
    """The arrays a batch hands out are read-only and cannot be made
    writable: C reads legal, mask, done and length back (before: writable,
    and b.legal[:] = 10**8; b.step() crashed the process)."""
    b = tabuleiro.load_game("capivarias").batch(3, seed=2)
    for name in ("obs", "mask", "rewards", "done", "player", "length", "legal", "num_legal"):
        a = getattr(b, name)
        with pytest.raises(ValueError, match="read-only"):
            a[...] = 1
        with pytest.raises(ValueError):
            a.flags.writeable = True
    b.step()
    assert (b.num_legal > 0).all()


def _writable_behind(view):
    base = view
    while not isinstance(base, memoryview):
        base = base.base
    out = base.obj
    assert out.flags.writeable and np.shares_memory(out, view)
    return out


@pytest.mark.parametrize("name,params", [("capivarias", {}), ("capulana", {"players": 4})])
def test_writing_through_to_the_buffers_changes_nothing_c_reads(name, params):
    """Whoever reaches a writable buffer behind the views (here through
    .base) and scribbles on legal, num_legal, length and done changes only
    what they read: C steps from its own copies, so the games go as in an
    untouched batch (before: out-of-range ids crashed the process, legal
    ones of another game corrupted the heap)."""
    game = tabuleiro.load_game(name, **params)
    ref, b = game.batch(64, seed=7), game.batch(64, seed=7)
    rng = np.random.default_rng(0)
    for step in range(150):
        w = {k: _writable_behind(getattr(b, k)) for k in ("legal", "num_legal", "length", "done")}
        w["legal"][...] = rng.integers(-2 ** 31, 2 ** 31, w["legal"].shape, dtype=np.int64).astype(np.int32) \
            if step % 2 else rng.integers(0, game.num_distinct_actions, w["legal"].shape).astype(np.int32)
        w["num_legal"][...] = rng.integers(-5, 2000, w["num_legal"].shape).astype(np.int32)
        w["length"][...] = np.iinfo(np.int32).max
        w["done"][...] = step % 3 == 0
        ref.step()
        b.step()
        for k in ("obs", "rewards", "done", "player", "length", "num_legal"):
            assert np.array_equal(getattr(b, k), getattr(ref, k)), (step, k)
        for i in range(64):    # a row's ids past num_legal[i] are not rewritten (nothing reads them)
            assert np.array_equal(b.legal[i, :b.num_legal[i]], ref.legal[i, :ref.num_legal[i]]), (step, i)


def test_one_thread_at_a_time():
    """A second thread entering a batch while a step runs (the GIL is
    released) gets RuntimeError instead of racing on the states."""
    import threading

    b = tabuleiro.load_game("capulana", players=5).batch(4096, seed=3, threads=1)
    errors, stop = [], threading.Event()

    def stepper():
        while not stop.is_set():
            try:
                b.step()
            except RuntimeError as e:
                errors.append(str(e))
    threads = [threading.Thread(target=stepper) for _ in range(2)]
    for t in threads:
        t.start()
    import time
    deadline = time.monotonic() + 20
    while not errors and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    for t in threads:
        t.join()
    assert errors and "another thread" in errors[0]
    b.reset()
    for _ in range(50):
        b.step()            # every game still steps cleanly (no state was corrupted)


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


def test_vector_env_returns_copies_unless_told_not_to():
    """As Gymnasium's vector envs: what reset/step return stays as it was
    after the next step (before: the batch's own buffers, overwritten in
    place, so stored (s, s') pairs were the same array twice); copy=False
    returns the batch's read-only buffers."""
    game = tabuleiro.load_game("capivarias")
    env = VectorEnv(game, 8, seed=5)
    obs0, info0 = env.reset()
    kept = {k: v.copy() for k, v in obs0.items()}, info0["player"].copy()
    obs1, rew1, term1, trunc1, info1 = env.step(env.batch.sample_actions(seed=1))
    assert all(np.array_equal(obs0[k], kept[0][k]) for k in kept[0]) and np.array_equal(info0["player"], kept[1])
    assert not np.array_equal(obs0["observation"], obs1["observation"])
    for a in (obs1["observation"], obs1["action_mask"], rew1, term1, info1["player"]):
        a[...] = 0          # a copy is the caller's to change
    env.step(env.batch.sample_actions(seed=2))
    fast = VectorEnv(game, 8, seed=5, copy=False)
    o, _ = fast.reset()
    assert o["observation"].base is not None and not o["observation"].flags.writeable
    o2, *_ = fast.step(fast.batch.sample_actions(seed=1))
    assert np.shares_memory(o["observation"], o2["observation"])


def test_core_batch_checks_what_it_binds_and_steps_with():
    """The binding under Batch: a buffer bound mid-game describes the current
    games at once (before: a mask bound with stale contents kept them, and
    its first "legal" id was illegal); buffers and actions must have the
    item type C reads (a float32 view of legal ids was played); no game
    is no batch; nothing steps before a reset."""
    from tabuleiro import _core

    game = tabuleiro.load_game("capulana", players=3)
    b = game.batch(16, seed=4)
    for _ in range(5):
        b.step()
    c = b._core
    obs, mask, rewards, done, player, length, legal, num_legal = b._owned
    stale = np.ones_like(mask)
    c.bind(obs, stale, rewards, done, player, length)            # mask bound, legal not
    for i in range(16):
        assert np.array_equal(np.flatnonzero(stale[i]), np.sort(b.state(i).legal_actions())), i
    c.step(None)
    for i in range(16):
        assert np.array_equal(np.flatnonzero(stale[i]), np.sort(b.state(i).legal_actions())), i
    c.bind(*b._owned)
    for bad in (legal.view(np.float32), np.zeros(legal.shape, np.int64), np.zeros(legal.shape, np.uint32)):
        with pytest.raises(ValueError, match="legal: "):
            c.bind(obs, mask, rewards, done, player, length, bad, num_legal)
    c.bind(*b._owned)
    acts = b.sample_actions(seed=3)
    with pytest.raises(ValueError, match="int32 buffer"):
        c.step(acts.view(np.float32))
    c.step(acts)
    with pytest.raises(TypeError):
        _core.CoreBatch(None, 4, 0)
    fresh = _core.CoreBatch(game._core, 2, 0)
    with pytest.raises(RuntimeError, match="reset"):
        fresh.step(None)
    with pytest.raises(RuntimeError, match="reset"):
        fresh.state(0)


def test_another_thread_changing_the_actions_cannot_crash_a_step():
    """C reads each action twice (is it legal? then apply); the step copies
    them first, with the GIL held, so a thread flipping the caller's array
    between legal ids and garbage meanwhile gets IllegalMoveError or a
    legal step, never an illegal id applied (before: a segfault)."""
    import threading
    import time

    b = tabuleiro.load_game("capulana", players=5).batch(2048, seed=9)
    stop = threading.Event()

    def flipper(arr, good):
        while not stop.is_set():
            arr[:] = 2 ** 31 - 1
            arr[:] = good
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:
        good = b.sample_actions(seed=int(b.length.sum()))
        arr = good.copy()
        t = threading.Thread(target=flipper, args=(arr, good))
        t.start()
        try:
            b.step(arr)
        except IllegalMoveError:
            pass
        finally:
            stop.set()
            t.join()
            stop.clear()
    b.step()
