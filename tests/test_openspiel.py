"""tabuleiro.openspiel: both games registered as OpenSpiel Python games.

- OpenSpiel's own random-simulation check (pyspiel.random_sim_test) on
  both Capivárias decks and every Capulana player count;
- resample_from_infostate keeps the player's information-state string and
  the player to move (OpenSpiel's ResampleInfostateTest), strings are
  unique per player and have perfect recall;
- OpenSpiel's Python ISMCTSBot plays complete games against our ismcts.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is needed (pip install 'tabuleiro[openspiel]')")

import numpy as np  # noqa: E402

from tabuleiro import agents  # noqa: E402
from tabuleiro import openspiel  # noqa: E402

openspiel.register()
openspiel.register()   # twice is harmless

LOADS = [("tabuleiro_capivarias", {}), ("tabuleiro_capivarias", {"expansion": True})] + [
    ("tabuleiro_capulana", {"players": n}) for n in (2, 3, 4, 5)]


@pytest.mark.parametrize("name,params", LOADS, ids=[f"{n}-{p}" for n, p in LOADS])
def test_random_sim(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _random_states(game, rng, n_games=2):
    for _ in range(n_games):
        st = game.new_initial_state()
        st.apply_action(int(rng.integers(game.max_chance_outcomes())))
        while not st.is_terminal():
            yield st
            st.apply_action(int(rng.choice(st.legal_actions())))
        yield st


@pytest.mark.parametrize("name,params", LOADS[::2] + [LOADS[-1]], ids=lambda x: str(x))
def test_resample_keeps_infostate(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for k, st in enumerate(_random_states(game, rng)):
        if st.is_terminal() or k % 5:
            continue
        p = st.current_player()
        r = st.resample_from_infostate(p, sampler)
        assert r.current_player() == p
        assert r.information_state_string(p) == st.information_state_string(p)
        assert np.array_equal(r.observation_tensor(p), st.observation_tensor(p))
        assert r.legal_actions() == st.legal_actions()
        strings = {st.information_state_string(q) for q in range(game.num_players())}
        assert len(strings) == game.num_players()


def test_perfect_recall_strings_grow():
    game = pyspiel.load_game("tabuleiro_capivarias")
    rng = np.random.default_rng(2)
    prev = None
    for st in _random_states(game, rng, 1):
        s = st.information_state_string(0)
        if prev is not None:
            assert s.startswith(prev)   # a prefix: nothing seen is ever forgotten
        prev = s
    assert game.information_state_tensor_size() == game.observation_tensor_size() == 418


def _play(game, bots, ours, seed):
    """bots: player -> OpenSpiel bot; ours: player -> our agent."""
    st = game.new_initial_state()
    st.apply_action(seed % game.max_chance_outcomes())
    while not st.is_terminal():
        p = st.current_player()
        if p in ours:
            action = ours[p].choose(st._st).action
        else:
            action = bots[p].step(st)
        assert action in st.legal_actions()
        st.apply_action(action)
    return st.returns()


@pytest.mark.parametrize("name,params", [("tabuleiro_capivarias", {}), ("tabuleiro_capulana", {"players": 3})])
def test_openspiel_ismcts_plays_ours(name, params):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name, params)
    n = game.num_players()
    for g in range(2):
        rs = np.random.RandomState(g)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=8,
                               random_state=rs)
        os_seat = g % n
        ours = {p: agents.make("ismcts", iterations=200, seed=10 * g + p) for p in range(n) if p != os_seat}
        ret = _play(game, {os_seat: bot}, ours, seed=100 + g)
        assert len(ret) == n
        assert game.min_utility() <= min(ret) and max(ret) <= game.max_utility()


def test_observer_types_other_than_a_players_own_are_refused():
    """make_observation with public information only (or every player's
    private information) is refused; before, it gave the player's own
    observation, so a 'public' string held that player's Capulana hand."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("tabuleiro_capulana", {"players": 3})
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        t = pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=private)
        with pytest.raises(ValueError, match="only a player's own observation"):
            make_observation(game, t)
    own = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                     private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    st = game.new_initial_state()
    st.apply_action(3)
    obs = make_observation(game, own)
    assert obs.string_from(st, 0) == st.observation_string(0)
    recall = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    assert make_observation(game, recall).string_from(st, 1) == st.information_state_string(1)


def test_chance_node_takes_only_its_outcomes():
    """Before: apply_action(-5) or (10**7) at the chance node dealt a game."""
    game = pyspiel.load_game("tabuleiro_capivarias", {"deals": 2})
    for bad in (-5, 2, 10 ** 7, 2 ** 40):
        st = game.new_initial_state()
        with pytest.raises(pyspiel.SpielError, match="chance outcome"):
            st.apply_action(bad)
        assert st.is_chance_node()
    st.apply_action(1)
    assert not st.is_chance_node()


def test_an_illegal_or_out_of_range_action_is_a_spiel_error():
    """Every id that is not legal now is OpenSpiel's SpielError, the state
    untouched: before, an id beyond a C int (2**40) escaped as the binding's
    OverflowError."""
    game = pyspiel.load_game("tabuleiro_capivarias")
    st = game.new_initial_state()
    st.apply_action(0)
    legal = set(st.legal_actions())
    before = str(st), st.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    for bad in (illegal, -2, game.num_distinct_actions(), 2 ** 40):   # (-1 is kInvalidAction: pyspiel's own check)
        with pytest.raises(pyspiel.SpielError, match=f"illegal action {bad}"):
            st.apply_action(bad)
        assert (str(st), st.history()) == before


def test_resample_needs_a_sampler_and_hides_the_others_recall():
    """resample_from_infostate draws from the sampler given (none: TypeError,
    not the global unseeded random), so the same draws give the same world;
    the other players' strings in the drawn state are their views in that
    world, not copies of their true recall (hashes of what the resampling
    player cannot see)."""
    game = pyspiel.load_game("tabuleiro_capulana", {"players": 3})
    rng = np.random.default_rng(4)
    st = game.new_initial_state()
    st.apply_action(5)
    for _ in range(6):
        st.apply_action(int(rng.choice(st.legal_actions())))
    p = st.current_player()
    with pytest.raises(TypeError, match="probability_sampler"):
        st.resample_from_infostate(p, None)
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        st.resample_from_infostate(p, lambda: 1.5)
    a = st.resample_from_infostate(p, lambda: 0.25)
    b = st.resample_from_infostate(p, lambda: 0.25)
    assert str(a) == str(b) and a.information_state_string(p) == st.information_state_string(p)
    for q in range(3):
        if q != p:
            assert a.information_state_string(q) != st.information_state_string(q)
            assert a.information_state_string(q) == f"p{q}:" + format(a._st.infostate_key(q), "016x")
