# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Thin Cython binding of the Capivárias C core (csrc/capivarias.c).

The Pythonic API lives in ``tabuleiro.capivarias``; this module only moves data
between Python objects and the flat ``cv_state`` struct and releases the GIL
around loops that run whole games.
"""
from libc.stdint cimport uint64_t, uint32_t, uint8_t
from libc.string cimport memset
from capivarias_c cimport *
from search_c cimport *

include "_search_common.pxi"

cdef cv_rules RULES
cdef bint READY = False
cdef list NAMES = []
cdef sr_game GAME


def set_cards(rows):
    """Load the card table: rows of (name, kind, herd, number, modifier, expansion).

    kind and herd are the integer codes of capivarias.h (herd 255 = none).
    """
    global READY, NAMES
    cdef cv_card_def defs[32]
    cdef int i
    rows = list(rows)
    if not 1 <= len(rows) <= CV_MAX_CARDS:
        raise ValueError(f"a Capivárias card table holds 1 to 32 cards, not {len(rows)}")
    memset(defs, 0, sizeof(defs))
    for i, row in enumerate(rows):
        name, kind, herd, number, modifier, expansion = row
        raw = name.encode("utf-8")
        if not 1 <= len(raw) < CV_NAME_LEN:
            raise ValueError(f"card name {name!r} must have 1 to 7 bytes")
        for j in range(len(raw)):
            defs[i].name[j] = raw[j]
        defs[i].kind = kind
        defs[i].herd = herd
        defs[i].number = number
        defs[i].modifier = modifier
        defs[i].expansion = expansion
    if cv_rules_init(&RULES, defs, len(rows)) != 0:
        raise ValueError("the card table is not usable by the engine")
    NAMES = [r[0] for r in rows]
    cv_search_game(&RULES, &GAME)
    READY = True


def num_actions():
    return RULES.num_actions


cdef inline void _need_rules() except *:
    if not READY:
        raise RuntimeError("card table not loaded: import tabuleiro.capivarias")


cdef list _names(uint32_t m):
    cdef list out = []
    cdef int c = 0
    while m:
        if m & 1:
            out.append(NAMES[c])
        m >>= 1
        c += 1
    return out


cdef class CoreState:
    """A Capivárias state held as one flat C struct (clone = one memcpy)."""
    cdef cv_state s

    def __cinit__(self):
        memset(&self.s, 0, sizeof(cv_state))

    @classmethod
    def _new(cls, uint64_t seed, bint expansion, int first_player):
        _need_rules()
        cdef CoreState st = cls.__new__(cls)
        cv_new_game(&RULES, &st.s, seed, expansion, first_player)
        return st

    @property
    def current_player(self):
        """The player to move (0 or 1), or None once the game is over."""
        return None if cv_is_terminal(&self.s) else self.s.to_move

    @property
    def is_terminal(self):
        """True once the game is over."""
        return bool(cv_is_terminal(&self.s))

    def legal_actions(self):
        """Legal action ids, sorted ascending."""
        cdef int buf[64]
        cdef int n = cv_legal_actions(&RULES, &self.s, buf)
        return [buf[i] for i in range(n)]

    cpdef bint _apply_action(self, int action):
        """Apply action if legal; return False (state untouched) if not."""
        return cv_apply_checked(&RULES, &self.s, action) == 0

    def _apply_round_end(self, int action):
        """Apply a legal action (checked); if it ended a round, return the state
        as it stood when that round was scored, else None."""
        cdef int buf[64]
        cdef int n = cv_legal_actions(&RULES, &self.s, buf)
        if action not in [buf[i] for i in range(n)]:
            raise ValueError(f"illegal action id {action}")
        cdef CoreState river = type(self).__new__(type(self))
        if cv_apply_round_end(&RULES, &self.s, action, &river.s):
            return river
        return None

    def clone(self):
        """An independent copy."""
        cdef CoreState c = type(self).__new__(type(self))
        c.s = self.s
        return c

    def returns(self):
        """[+1, -1] / [-1, +1] once decided, [0.0, 0.0] before and on a draw."""
        cdef double r[2]
        cv_returns(&self.s, r)
        return [r[0], r[1]]

    def scores(self):
        """Each player's round score as the river stands now (R28)."""
        cdef int sc[2]
        cv_scores(&RULES, &self.s, sc)
        return [sc[0], sc[1]]

    def perft(self, int depth):
        """Number of nodes `depth` actions deep (computed in C, GIL released)."""
        if depth < 0:
            raise ValueError("depth must be >= 0")
        cdef uint64_t n
        with nogil:
            n = cv_perft(&RULES, &self.s, depth)
        return n

    def infostate_key(self, int player):
        """64-bit hash of everything `player` sees (equal views, equal keys)."""
        if not 0 <= player <= 1:
            raise ValueError(f"player must be 0 or 1, not {player}")
        return cv_infostate_key(&RULES, &self.s, player)

    def _determinize(self, int player, uint64_t seed):
        cdef CoreState c = type(self).__new__(type(self))
        cv_determinize(&RULES, &self.s, player, seed, &c.s)
        return c

    def _to_dict(self):
        cdef int i, k
        cdef uint8_t none = CV_NONE
        segments = []
        for i in range(3):
            segments.append({
                "river": NAMES[self.s.river[i]],
                "capionca": None if self.s.capionca[i] == none else NAMES[self.s.capionca[i]],
                "sides": [_names(self.s.side[i][0]), _names(self.s.side[i][1])],
            })
        return {
            "game": "capivarias",
            "expansion": bool(self.s.expansion),
            "round": self.s.round,
            "round_wins": [self.s.wins[0], self.s.wins[1]],
            "to_move": None if self.s.to_move == none else self.s.to_move,
            "last_taker": None if self.s.last_taker == none else self.s.last_taker,
            "winner": None if self.s.winner == none else self.s.winner,
            "seed": self.s.rng,
            "segments": segments,
            "available": [NAMES[self.s.avail[k]] for k in range(self.s.n_avail)],
            "pile": [NAMES[self.s.pile[k]] for k in range(self.s.pile_top, self.s.n_pile)],
            "discard": _names(self.s.discard),
        }

    def _view_parts(self):
        """(river modifiers, pile count, top modifier or None) for view()."""
        mods = [RULES.card[self.s.river[i]].modifier for i in range(3)]
        n = self.s.n_pile - self.s.pile_top
        top = RULES.card[self.s.pile[self.s.pile_top]].modifier if n else None
        return mods, n, top

    @classmethod
    def _load(cls, *, uint64_t seed, bint expansion, int round, wins, to_move,
              last_taker, winner, river, capionca, sides, available, pile, discard):
        """Build a state from card indices; raise ValueError if inconsistent."""
        _need_rules()
        cdef CoreState st = cls.__new__(cls)
        cdef cv_state *s = &st.s
        cdef int i, k
        cdef char msg[160]
        s.rng = seed
        s.expansion = expansion
        s.round = round
        s.wins[0] = wins[0]
        s.wins[1] = wins[1]
        s.to_move = CV_NONE if to_move is None else to_move
        s.last_taker = CV_NONE if last_taker is None else last_taker
        s.winner = CV_NONE if winner is None else winner
        for i in range(3):
            s.river[i] = river[i]
            s.capionca[i] = CV_NONE if capionca[i] is None else capionca[i]
            for k in range(2):
                s.side[i][k] = sides[i][k]
        if len(available) > 4 or len(pile) > CV_MAX_CARDS:
            raise ValueError("too many available or pile cards")
        s.n_avail = len(available)
        for k in range(len(available)):
            s.avail[k] = available[k]
        s.pile_top = 0
        s.n_pile = len(pile)
        for k in range(len(pile)):
            s.pile[k] = pile[k]
        s.discard = discard
        if cv_check(&RULES, s, msg, 160) != 0:
            raise ValueError(msg.decode("utf-8"))
        return st


def random_playouts(uint64_t n, uint64_t seed, bint expansion=False):
    """Play n uniformly random games in C (GIL released); aggregate statistics."""
    _need_rules()
    cdef cv_playout_stats st
    with nogil:
        cv_random_playouts(&RULES, n, seed, expansion, &st)
    return {"games": st.games, "wins": [st.wins[0], st.wins[1]], "draws": st.draws,
            "actions": st.actions, "rounds": st.rounds}


def search(CoreState state, int kind, uint64_t seed, long iterations, double time_limit, double c,
           int rollout, int threads, long max_nodes):
    """Run a search (kind 0 flatmc, 1 mcts, 2 ismcts) from `state` with the GIL
    released. Returns (best action, [(action, visits, mean)], iterations, nodes, pool_full)."""
    _need_rules()
    cdef cv_state root = state.s
    return run_search(&GAME, &root, kind, seed, iterations, time_limit, c, rollout, threads, max_nodes)


def greedy_action(CoreState state, uint64_t seed):
    """The greedy player's action (best immediate score difference)."""
    cdef int buf[64]
    cdef uint64_t g = seed
    cdef int n = cv_legal_actions(&RULES, &state.s, buf)
    if n == 0:
        raise ValueError("the game is over")
    return buf[cv_greedy_index(&RULES, &state.s, buf, n, &g)]
