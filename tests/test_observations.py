"""Observation tensors (docs/observations.md): a fixed-size float32 encoding
of view(player) and nothing else, for every registered game.

- size and finiteness on random positions, for every player;
- the tensor depends only on view(player): a determinization for that
  player (another full state with an equal view) gives an equal tensor;
- it tells apart what the view tells apart (distinct infostate keys, distinct
  tensors, on positions of one game);
- the mask written by C equals legal_actions().
"""

from __future__ import annotations

import math
from array import array

import pytest

from tests.conformance._support import CASES, positions

IDS = [c.id for c in CASES]
BY_ID = {c.id: c for c in CASES}


@pytest.mark.parametrize("case_id", IDS)
def test_size_and_finite(case_id: str) -> None:
    game = BY_ID[case_id].game
    assert game.observation_size == game.info.observation_size > 0
    for st in positions(case_id):
        for p in range(game.num_players):
            obs = st.observation(p)
            assert isinstance(obs, array) and obs.typecode == "f"
            assert len(obs) == game.observation_size
            assert all(math.isfinite(x) for x in obs)


@pytest.mark.parametrize("case_id", IDS)
def test_equal_views_equal_tensors(case_id: str) -> None:
    game = BY_ID[case_id].game
    checked = 0
    for k, st in enumerate(positions(case_id)):
        for p in range(game.num_players):
            other = st.determinize(p, seed=1000 + k)
            assert other.view(p) == st.view(p)
            assert list(other.observation(p)) == list(st.observation(p)), (case_id, k, p)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("case_id", IDS)
def test_tensor_tells_views_apart(case_id: str) -> None:
    """Within one set of positions, two different infostate keys of one
    player never share a tensor (the encoding loses nothing of the view)."""
    game = BY_ID[case_id].game
    for p in range(game.num_players):
        seen: dict[bytes, int] = {}
        for st in positions(case_id):
            t = st.observation(p).tobytes()
            key = st.infostate_key(p)
            assert seen.setdefault(t, key) == key, (case_id, p)


@pytest.mark.parametrize("case_id", IDS)
def test_out_buffer_and_mask(case_id: str) -> None:
    from tabuleiro import _core

    game = BY_ID[case_id].game
    buf = array("f", bytes(4 * game.observation_size))
    mask = bytearray(game.num_distinct_actions)
    for st in positions(case_id):
        p = st.current_player if st.current_player is not None else 0
        assert st.observation(p, out=buf) is buf
        assert list(buf) == list(st.observation(p))
        n = _core.legal_mask_into(st, mask)
        assert [a for a, m in enumerate(mask) if m] == st.legal_actions()
        assert n == len(st.legal_actions())
        assert bytes(mask) == st.legal_action_mask()


def test_bad_buffers() -> None:
    import tabuleiro

    st = tabuleiro.load_game("toy").new_initial_state(seed=1)
    with pytest.raises(ValueError, match="bytes"):
        st.observation(0, out=array("f", bytes(4 * 10)))
    with pytest.raises(ValueError, match="float32"):
        st.observation(0, out=bytearray(4 * 84))
    # items of the right size but not floats: once accepted, written as float bit patterns
    import numpy as np
    for dtype in (np.int32, np.uint32):
        buf = np.zeros(84, dtype)
        with pytest.raises(ValueError, match="float32 buffer is needed, not one of format"):
            st.observation(0, out=buf)
        assert not buf.any()
    assert st.observation(0, out=np.zeros(84, np.dtype("<f4"))).any()
    with pytest.raises(ValueError, match="player"):
        st.observation(2)
