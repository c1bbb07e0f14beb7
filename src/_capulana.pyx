# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Thin Cython binding of the Capulana C core (csrc/capulana.c).

The Pythonic API lives in ``tabuleiro.capulana``; this module only moves data
between Python objects and the flat ``cp_state`` struct and releases the GIL
around loops (playouts, perft, weaving options).
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t
from libc.string cimport memset
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from capulana_c cimport *
from search_c cimport *

include "_search_common.pxi"

cdef cp_rules RULES
cdef bint READY = False
cdef list NAMES = []
cdef list OBJ_NAMES = []
cdef tuple PHASES = ("offer", "weave", "over")
cdef str COLOURS = "-YGRBO?*"
cdef str PATTERNS = "-DTCZL?*"
cdef tuple PLACEMENTS = ("+", ">1", ">2", ">3", "<1", "<2", "<3")


def set_tables(cards, objectives):
    """Load the card table and the objectives.

    cards: 61 rows (name, kind, black, value, colours, patterns) with kind 0 =
    fabric / 1 = initial and colour / pattern codes as in capulana.h;
    objectives: 10 rows (name, points, key code).
    """
    global READY, NAMES, OBJ_NAMES
    cdef cp_card_def defs[61]
    cdef cp_objective_def objs[10]
    cdef int i, j
    cards = list(cards)
    objectives = list(objectives)
    if len(cards) != CP_NCARDS or len(objectives) != CP_NOBJECTIVES:
        raise ValueError("Capulana needs 61 cards (56 fabric, 5 initial) and 10 objectives")
    memset(defs, 0, sizeof(defs))
    memset(objs, 0, sizeof(objs))
    for i, row in enumerate(cards):
        name, kind, black, value, colours, patterns = row
        raw = name.encode("utf-8")
        if not 1 <= len(raw) < CP_NAME_LEN:
            raise ValueError(f"card name {name!r} must have 1 to 7 bytes")
        for j in range(len(raw)):
            defs[i].name[j] = raw[j]
        defs[i].kind = kind
        defs[i].black = black
        defs[i].value = value
        if len(colours) != len(patterns) or len(colours) > 4:
            raise ValueError(f"card {name}: bad strips")
        defs[i].nstrips = len(colours)
        for j in range(len(colours)):
            defs[i].colour[j] = colours[j]
            defs[i].pattern[j] = patterns[j]
    for i, row in enumerate(objectives):
        name, points, key = row
        raw = name.encode("utf-8")
        if not 1 <= len(raw) < CP_NAME_LEN:
            raise ValueError(f"objective name {name!r} must have 1 to 7 bytes")
        for j in range(len(raw)):
            objs[i].name[j] = raw[j]
        objs[i].points = points
        objs[i].key = key
    if cp_rules_init(&RULES, defs, objs) != 0:
        raise ValueError("the Capulana tables are not usable by the engine")
    NAMES = [r[0] for r in cards]
    OBJ_NAMES = [r[0] for r in objectives]
    READY = True


cdef inline void _need_rules() except *:
    if not READY:
        raise RuntimeError("card table not loaded: import tabuleiro.capulana")


cdef list _names(uint64_t m):
    cdef list out = []
    cdef int c = 0
    while m:
        if m & 1:
            out.append(NAMES[c])
        m >>= 1
        c += 1
    return out


cdef inline str _strip(int colour, int pattern):
    return COLOURS[colour] + PATTERNS[pattern]


def score_sets(colours, patterns):
    """R10 breakdown of a row given as strip codes: (total, [(kind, symbol, start, length)])."""
    cdef uint8_t col[64]
    cdef uint8_t pat[64]
    cdef cp_set sets[256]
    cdef int n = len(colours), i, total = 0, k
    if n > CP_MAX_STRIPS or len(patterns) != n:
        raise ValueError(f"a row of at most {CP_MAX_STRIPS} strips, not {n}")
    for i in range(n):
        col[i] = colours[i]
        pat[i] = patterns[i]
    k = cp_score_sets(col, pat, n, sets, 256, &total)
    return total, [(sets[i].kind, sets[i].symbol, sets[i].start, sets[i].length) for i in range(min(k, 256))]


cdef object MOVE = int


def set_move_class(cls):
    """The class WeaveOption.moves builds from action ids (tabuleiro.capulana.Move)."""
    global MOVE
    MOVE = cls


cdef class WeaveOption:
    """One complete weaving step (cp_weaving_options): its moves (0- and 1-card
    steps end with ``stop``), the resulting visible ``strips``, the capulana
    ``score`` (R10) and the ``final_score`` (R11, objectives included) it
    yields. Held as the C record; strips and moves are built on access."""
    cdef cp_weave_option o

    @property
    def actions(self):
        """The atomic action ids, in order."""
        return tuple([self.o.actions[i] for i in range(self.o.n_actions)])

    @property
    def moves(self):
        """The moves, in order."""
        return tuple([MOVE(self.o.actions[i]) for i in range(self.o.n_actions)])

    @property
    def cards(self):
        """Cards woven: 0, 1 or 2."""
        return self.o.ncards

    @property
    def v(self):
        """Visible strips of the last card of the resulting row."""
        return self.o.v

    @property
    def score(self):
        """Capulana score of the resulting row (R10)."""
        return self.o.score

    @property
    def final_score(self):
        """Final score the player would then have (R11: objectives, hand count)."""
        return self.o.final_score

    @property
    def strips(self):
        """The resulting visible strips, left to right."""
        cdef int j, k, bit, code
        cdef list out = []
        for j in range(self.o.nstrips):
            bit = self.o.nstrips - 1 - j
            code = 0
            for k in range(6):
                code |= <int>((self.o.row.pl[k] >> bit) & 1) << k
            out.append(_strip(code & 7, code >> 3))
        return tuple(out)

    def __eq__(self, other):
        if not isinstance(other, WeaveOption):
            return NotImplemented
        return (self.actions, self.strips, self.score, self.final_score) == (other.actions, other.strips, other.score, other.final_score)

    def __hash__(self):
        return hash((self.actions, self.strips))

    def __repr__(self):
        return (f"WeaveOption(moves={', '.join(str(m) for m in self.moves)!r}, strips={' '.join(self.strips)!r}, "
                f"score={self.score}, final_score={self.final_score})")

    def __str__(self):
        return f"{', '.join(map(str, self.moves))} -> {' '.join(self.strips)} (score {self.score})"


cdef class CoreState:
    """A Capulana state held as one flat C struct (clone = one memcpy)."""
    cdef cp_state s

    def __cinit__(self):
        memset(&self.s, 0, sizeof(cp_state))

    @classmethod
    def _new(cls, int players, uint64_t seed):
        _need_rules()
        cdef CoreState st = cls.__new__(cls)
        cp_new_game(&RULES, &st.s, players, seed)
        return st

    @property
    def players(self):
        """Number of players (2..5)."""
        return self.s.players

    @property
    def current_player(self):
        """The player to move, or None once the game is over."""
        return None if cp_is_terminal(&self.s) else self.s.to_move

    @property
    def is_terminal(self):
        """True once round 4's weaving step is over."""
        return bool(cp_is_terminal(&self.s))

    @property
    def phase(self):
        """'offer', 'weave' or 'over'."""
        return PHASES[self.s.phase]

    def legal_actions(self):
        """Legal action ids, sorted ascending."""
        cdef int buf[848]
        cdef int n = cp_legal_actions(&RULES, &self.s, buf)
        return [buf[i] for i in range(n)]

    cpdef bint _apply_action(self, int action):
        """Apply action if legal; return False (state untouched) if not."""
        if action < 0 or action >= CP_NUM_ACTIONS:
            return False
        return cp_apply_checked(&RULES, &self.s, action) == 0

    def clone(self):
        """An independent copy."""
        cdef CoreState c = type(self).__new__(type(self))
        c.s = self.s
        return c

    def returns(self):
        """1/k for each of k tied winners once over (R11), all 0.0 before."""
        cdef double r[5]
        cp_returns(&RULES, &self.s, r)
        return [r[i] for i in range(self.s.players)]

    def scores(self):
        """Each player's final score as it would stand now (R10 + R11)."""
        cdef int sc[5]
        cp_scores(&RULES, &self.s, sc)
        return [sc[i] for i in range(self.s.players)]

    def capulana_scores(self):
        """Each player's capulana score (R10, no objectives)."""
        return [cp_row_score(&self.s.row[i], self.s.nstrips[i]) for i in range(self.s.players)]

    def perft(self, int depth):
        """Number of nodes `depth` actions deep (computed in C, GIL released)."""
        if depth < 0:
            raise ValueError("depth must be >= 0")
        cdef uint64_t n
        with nogil:
            n = cp_perft(&RULES, &self.s, depth)
        return n

    def _determinize(self, int player, uint64_t seed):
        cdef CoreState c = type(self).__new__(type(self))
        cp_determinize(&RULES, &self.s, player, seed, &c.s)
        return c

    def infostate_key(self, int player):
        """64-bit hash of everything `player` can see (equal views, equal keys)."""
        if not 0 <= player < self.s.players:
            raise ValueError(f"player must be 0..{self.s.players - 1}, not {player}")
        return cp_infostate_key(&RULES, &self.s, player)

    def _row_strips(self, int p):
        """Visible strips of player p's capulana, left to right, as text."""
        cdef uint8_t col[64]
        cdef uint8_t pat[64]
        cdef int n = cp_row_strips(&self.s, p, col, pat)
        return [_strip(col[i], pat[i]) for i in range(n)]

    def _weaving_options(self):
        """[WeaveOption] for the player to move (C, GIL released)."""
        cdef int cap = 4096, n = -1
        cdef cp_weave_option *buf = NULL
        cdef list out
        cdef int i
        cdef WeaveOption w
        try:
            while True:
                buf = <cp_weave_option *> PyMem_Malloc(cap * sizeof(cp_weave_option))
                if buf == NULL:
                    raise MemoryError()
                with nogil:
                    n = cp_weaving_options(&RULES, &self.s, buf, cap)
                if n >= 0:
                    break
                PyMem_Free(buf)
                buf = NULL
                cap *= 4
            out = [None] * n
            for i in range(n):
                w = WeaveOption.__new__(WeaveOption)
                w.o = buf[i]
                out[i] = w
        finally:
            if buf != NULL:
                PyMem_Free(buf)
        return out

    def _to_dict(self):
        cdef cp_state *s = &self.s
        cdef int n = s.players, k, q, i, c
        cdef uint64_t m
        offers = []
        open_offer = None
        if s.phase == CP_PHASE_OFFER:
            for k in range(s.n_offers + s.open):
                q = cp_offerer(s, k)
                m = s.hold[q] & s.offered
                m = (m & s.second) if k >= n else (m & ~s.second)
                o = {"player": q, "slot": s.offer_slot[k], "cards": _names(m)}
                if k < s.n_offers:
                    offers.append(o)
                else:
                    open_offer = o
        rows = []
        for q in range(n):
            row = [NAMES[s.rcard[q][0]] + " n+"]
            for i in range(1, s.rlen[q]):
                c = s.rcard[q][i]
                k = cp_place_of(s, c)
                row.append(NAMES[c] + (" n" if k < 7 else " r") + PLACEMENTS[k % 7])
            rows.append(row)
        known = {}
        m = s.known
        c = 0
        while m:
            if m & 1:
                known[NAMES[c]] = cp_holder(s, c)
            m >>= 1
            c += 1
        return {
            "game": "capulana",
            "players": n,
            "round": s.round,
            "start_player": s.start,
            "phase": PHASES[s.phase],
            "to_move": None if cp_is_terminal(s) else s.to_move,
            "seed": s.rng,
            "objectives": [OBJ_NAMES[i] for i in range(CP_NOBJECTIVES) if s.objectives >> i & 1],
            "deck": [NAMES[s.deck[i]] for i in range(s.deck_top, s.deck_n)],
            "slots": [NAMES[s.slots[i]] for i in range(n)] if s.phase == CP_PHASE_OFFER else [],
            "offers": offers,
            "open_offer": open_offer,
            "hands": [_names(s.hold[q] & ~s.offered) for q in range(n)],
            "capulanas": rows,
            "woven": [s.woven[q] for q in range(n)],
            "weave_done": [bool(s.weave_done >> q & 1) for q in range(n)],
            "known": known,
        }

    @classmethod
    def _load(cls, *, int players, int round, int start, int phase, to_move, uint64_t seed,
              int objectives, deck, slots, offers, open_offer, hands, rows, woven, weave_done, uint64_t known):
        """Build a state from card ids; raise ValueError if it is inconsistent.

        offers: [(slot, mask)] in the order made; open_offer: (slot, mask) or
        None; hands: masks; rows: [[(card, q)]] with the initial card first.
        """
        _need_rules()
        cdef CoreState st = cls.__new__(cls)
        cdef cp_state *s = &st.s
        cdef int k, q, i, bad, nmade
        cdef char msg[200]
        cdef uint64_t m
        s.players = players
        s.round = round
        s.start = start
        s.phase = phase
        s.to_move = CP_NONE if to_move is None else to_move
        s.rng = seed
        s.objectives = objectives
        if len(deck) > CP_NFABRIC:
            raise ValueError("the deck holds more cards than the game has")
        for i in range(len(deck)):
            s.deck[i] = deck[i]
        s.deck_top = 0
        s.deck_n = len(deck)
        for i in range(5):
            s.slots[i] = CP_NONE
        for i in range(min(len(slots), players)):
            s.slots[i] = slots[i]
        made = list(offers) + ([open_offer] if open_offer is not None else [])
        if len(made) > 2 * players or len(offers) >= 2 * players:
            raise ValueError("more offers than a round has (the auction resolves when the last one closes)")
        for k in range(len(made)):
            q = cp_offerer(s, k)
            s.offer_slot[k] = made[k][0]
            m = made[k][1]
            s.hold[q] |= m
            s.offered |= m
            if k >= players:
                s.second |= m
        s.n_offers = len(offers)
        s.open = 1 if open_offer is not None else 0
        for q in range(players):
            s.hold[q] |= hands[q]
            s.woven[q] = woven[q]
            if len(rows[q]) > CP_MAX_ROW:
                raise ValueError(f"the capulana of player {q} has {len(rows[q])} cards: this engine holds at most {CP_MAX_ROW}")
            s.rlen[q] = len(rows[q])
            for i, (c, pq) in enumerate(rows[q]):
                s.rcard[q][i] = c
                if i:
                    cp_set_place(s, c, pq)
            bad = cp_replay_row(&RULES, s, q)
            if bad:
                if bad == 1:
                    raise ValueError(f"the capulana of player {q} must start with an initial card placed 'n+' (R1)")
                raise ValueError(f"the capulana of player {q} is illegal when replayed: entry {bad - 1} "
                                 f"breaks the R8 limits or the row outgrows {CP_MAX_STRIPS} strips")
        s.weave_done = weave_done
        s.known = known
        if cp_check(&RULES, s, msg, 200) != 0:
            raise ValueError(msg.decode("utf-8"))
        return st


def action_to_string(int action):
    """Notation of an action id (RULES 1.6)."""
    _need_rules()
    cdef char buf[32]
    cdef int n = cp_action_to_string(&RULES, action, buf, 32)
    if n < 0:
        raise ValueError(f"action id {action} is out of range")
    return buf[:n].decode("utf-8")


def random_playouts(uint64_t n, uint64_t seed, int players):
    """Play n uniformly random games in C (GIL released); aggregate statistics."""
    _need_rules()
    if not 2 <= players <= 5:
        raise ValueError(f"players must be 2 to 5, not {players}")
    cdef cp_playout_stats st
    with nogil:
        cp_random_playouts(&RULES, n, seed, players, &st)
    return {"games": st.games, "actions": st.actions, "ties": st.ties,
            "wins": [st.wins[i] for i in range(players)],
            "score_sum": [st.score_sum[i] for i in range(players)]}


# --- search (csrc/search) ----------------------------------------------------------

def search(CoreState state, int kind, uint64_t seed, long iterations, double time_limit, double c,
           int rollout, int threads, long max_nodes):
    """Run a search (kind 0 flatmc, 1 mcts, 2 ismcts) from `state` with the GIL
    released. Returns (best action, [(action, visits, mean)], iterations, nodes, pool_full)."""
    _need_rules()
    cdef sr_game game
    cp_search_game(&RULES, &game)
    cdef cp_state root = state.s
    return run_search(&game, &root, kind, seed, iterations, time_limit, c, rollout, threads, max_nodes)


def greedy_action(CoreState state, uint64_t seed):
    """The greedy player's action: the first action of the best weaving_options
    step (final score, R11); uniform in the offer phase."""
    _need_rules()
    cdef int buf[848]
    cdef uint64_t g = seed
    cdef int n = cp_legal_actions(&RULES, &state.s, buf)
    if n == 0:
        raise ValueError("the game is over")
    cdef int i
    with nogil:
        i = cp_greedy_index(&RULES, &state.s, buf, n, &g)
    if i < 0:
        raise MemoryError()
    return buf[i]
