"""tabuleiro.openspiel: every registered game as an OpenSpiel Python game.

- the GameTypes are generated from the registry: Capivárias' and
  Capulana's are exactly what they were when written by hand, Toy's is
  there too, and each follows its game's facts;
- OpenSpiel's own random-simulation check (pyspiel.random_sim_test) on
  both Capivárias decks, every Capulana player count and Toy;
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
#: with every registered game at its defaults (tabuleiro_toy is generated like the others)
ALL = LOADS + [("tabuleiro_toy", {})]


@pytest.mark.parametrize("name,params", ALL, ids=[f"{n}-{p}" for n, p in ALL])
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


@pytest.mark.parametrize("name,params", LOADS[::2] + [LOADS[-1], ALL[-1]], ids=lambda x: str(x))
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


@pytest.mark.parametrize("name,params", [("tabuleiro_capivarias", {}), ("tabuleiro_capulana", {"players": 3}),
                                         ("tabuleiro_toy", {})])
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


# --- the games are generated from the registry (issue 27) -------------------------------------------

import tabuleiro  # noqa: E402

#: the GameTypes as they were written by hand before they were generated (every field)
HAND_WRITTEN = {
    "tabuleiro_capivarias": dict(
        long_name="tabuleiro Capivárias", utility=pyspiel.GameType.Utility.ZERO_SUM, min_num_players=2,
        max_num_players=2, parameter_specification={"expansion": False, "first_player": 0, "deals": 4096, "seed": 0}),
    "tabuleiro_capulana": dict(
        long_name="tabuleiro Capulana", utility=pyspiel.GameType.Utility.CONSTANT_SUM, min_num_players=2,
        max_num_players=5, parameter_specification={"players": 3, "deals": 4096, "seed": 0}),
    "tabuleiro_toy": dict(
        long_name="tabuleiro Toy", utility=pyspiel.GameType.Utility.ZERO_SUM, min_num_players=2,
        max_num_players=2, parameter_specification={"deals": 4096, "seed": 0}),
}
COMMON = dict(dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
              chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
              information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
              reward_model=pyspiel.GameType.RewardModel.TERMINAL,
              provides_information_state_string=True, provides_information_state_tensor=True,
              provides_observation_string=True, provides_observation_tensor=True,
              provides_factored_observation_string=False)


def test_every_registered_game_is_registered_with_openspiel():
    assert set(openspiel.GAMES) == {f"tabuleiro_{g}" for g in tabuleiro.games()}
    registered = set(pyspiel.registered_names())
    assert set(openspiel.GAMES) <= registered
    for name, cls in openspiel.GAMES.items():
        assert getattr(openspiel, cls.__name__) is cls and cls.__module__ == "tabuleiro.openspiel"
        assert cls.NAME == name.removeprefix("tabuleiro_")
    assert openspiel.CapivariasGame is openspiel.GAMES["tabuleiro_capivarias"]
    assert openspiel.CapulanaGame is openspiel.GAMES["tabuleiro_capulana"]


@pytest.mark.parametrize("name", sorted(HAND_WRITTEN))
def test_game_types_are_the_hand_written_ones(name):
    t = openspiel.GAMES[name].GAME_TYPE
    assert t.short_name == name
    for field, value in {**COMMON, **HAND_WRITTEN[name]}.items():
        assert getattr(t, field) == value, field
    assert pyspiel.load_game(name).get_type().parameter_specification == t.parameter_specification


@pytest.mark.parametrize("game", ["capivarias", "capulana", "toy"])
def test_game_type_and_info_follow_the_games_facts(game):
    """Each field that comes from the game comes from its facts and specs:
    utility kind from utility_sum, players from the instances, parameters
    from param_specs() without the tool ones, GameInfo from GameInfo."""
    cls = openspiel.GAMES[f"tabuleiro_{game}"]
    t = cls.GAME_TYPE
    tb = tabuleiro.load_game(game)
    specs = [p for p in tb.param_specs() if not p.tool]
    assert t.parameter_specification == {**{p.name: p.default for p in specs}, "deals": 4096, "seed": 0}
    kinds = {None: pyspiel.GameType.Utility.GENERAL_SUM, 0.0: pyspiel.GameType.Utility.ZERO_SUM}
    assert t.utility == kinds.get(tb.info.utility_sum, pyspiel.GameType.Utility.CONSTANT_SUM)
    players = next((p for p in specs if p.name == "players"), None)
    counts = [tb.num_players] if players is None else [
        tabuleiro.load_game(game, players=n).num_players for n in range(players.low, players.high + 1)]
    assert (t.min_num_players, t.max_num_players) == (min(counts), max(counts))
    g = pyspiel.load_game(f"tabuleiro_{game}")
    assert g.num_distinct_actions() == tb.num_distinct_actions and g.num_players() == tb.num_players
    assert (g.min_utility(), g.max_utility()) == (tb.info.min_utility, tb.info.max_utility)
    assert g.utility_sum() == tb.info.utility_sum
    assert g.max_game_length() == tb.info.max_game_length + 1       # the deal, then the game
    assert g.observation_tensor_size() == tb.observation_size


def test_capulanas_tool_parameter_is_not_an_openspiel_parameter():
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("tabuleiro_capulana", {"players": 3, "legacy_determinize": True})
    g = pyspiel.load_game("tabuleiro_capulana(players=4)")
    assert g.num_players() == 4 and str(g) == "tabuleiro_capulana(deals=4096,players=4,seed=0)"


@pytest.mark.parametrize("name,params", ALL, ids=[f"{n}-{p}" for n, p in ALL])
def test_returns_sum_to_the_utility_sum(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(8)
    for _ in range(3):
        st = game.new_initial_state()
        st.apply_action(int(rng.integers(game.max_chance_outcomes())))
        while not st.is_terminal():
            st.apply_action(int(rng.choice(st.legal_actions())))
        assert sum(st.returns()) == pytest.approx(game.utility_sum())


def test_toy_plays_through_openspiel():
    game = pyspiel.load_game("tabuleiro_toy")
    assert game.get_type().short_name == "tabuleiro_toy" and game.num_players() == 2
    st = game.new_initial_state()
    assert st.is_chance_node() and len(st.chance_outcomes()) == 4096
    st.apply_action(17)
    strings = []
    while not st.is_terminal():
        strings.append(st.information_state_string(st.current_player()))
        st.apply_action(st.legal_actions()[0])
    assert len(st.history()) == 1 + 6 and sum(st.returns()) == 0.0
    assert all(s.startswith("p") for s in strings)


def test_module_docstring_names_every_game():
    for name in openspiel.GAMES:
        assert f"``{name}``" in openspiel.__doc__, name
