# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, binding=False, embedsignature=True, embedsignature.format=clinic
"""The one binding of the C core (csrc/game.h): a game over a rules buffer and
a state over a state buffer, for every registered game.

The Pythonic API lives in ``tabuleiro`` (``load_game``, ``Game``, ``State``);
this module moves data between Python objects and C, copies a state before
any loop that runs with the GIL released, and turns C error codes into the
package's exceptions. Each game's own extras (Capulana's weaving options and
strip scoring, Capivárias' round-end river) are included at the end.
"""
cimport cython
from libc.stdint cimport uint64_t, int64_t, uint8_t
from libc.string cimport memcpy, memset, memcmp
from libc.stdlib cimport malloc, free
from cpython.mem cimport PyMem_Malloc, PyMem_Calloc, PyMem_Realloc, PyMem_Free
from cpython.list cimport PyList_New, PyList_SetItem
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
from cpython.exc cimport PyErr_CheckSignals
from cpython.type cimport PyType_Check, PyType_IsSubtype
from cpython.number cimport PyNumber_Index
from game_c cimport *

from tabuleiro._errors import EngineError, GameOverError, IllegalMoveError, InvalidStateError
from tabuleiro._fields import check_seed as _check_seed

cdef extern from *:
    """
    /* CoreState's own tp_new (Cython's), looked up once: what CoreState.__new__(cls) runs */
    static newfunc tab_core_state_new = NULL;
    static PyObject *tab_new_state(PyObject *base, PyObject *cls, PyObject *empty) {
        if (tab_core_state_new == NULL)
            tab_core_state_new = (newfunc) PyType_GetSlot((PyTypeObject *) base, Py_tp_new);
        return tab_core_state_new((PyTypeObject *) cls, empty, NULL);
    }

    /* Under the Limited API, Cython's tp_new asks the type for its flags
       (PyType_GetFlags) and its tp_alloc slot (PyType_GetSlot) on every
       object; the version-specific build reads both from the type struct.
       For a state class already checked, CoreGame._blank keeps its tp_alloc
       and calls it here, then does what that tp_new does after allocating:
       the vtable pointer, right after the object header, copied from a
       prototype that tp_new made, and core_game (`game`, stored here rather
       than None then replaced) at `core_game_at` (issue 27; the layout is
       measured and checked at import, _measure_state_layout). */
    typedef PyObject *(*tab_allocfunc)(PyTypeObject *, Py_ssize_t);
    #define TAB_FAST_NEW CYTHON_COMPILING_IN_LIMITED_API
    static tab_allocfunc tab_alloc_of(PyObject *cls) {
        return (tab_allocfunc) PyType_GetSlot((PyTypeObject *) cls, Py_tp_alloc);
    }
    static int tab_is_abstract(PyObject *cls) {   /* per object, as tp_new: __abstractmethods__ can be set late */
        return (PyType_GetFlags((PyTypeObject *) cls) & Py_TPFLAGS_IS_ABSTRACT) != 0;
    }
    static PyObject *tab_fast_new(tab_allocfunc alloc, PyObject *cls, PyObject *proto, Py_ssize_t core_game_at,
                                  PyObject *game) {
        PyObject *o = alloc((PyTypeObject *) cls, 0);
        if (o == NULL)
            return NULL;
        /* one pointer (any padding up to `s` is zero, from the allocator): an
           assignment, not a call to memcpy */
        *(void **) ((char *) o + sizeof(PyObject)) = *(void **) ((char *) proto + sizeof(PyObject));
        Py_INCREF(game);
        *(PyObject **) ((char *) o + core_game_at) = game;
        return o;
    }
    static int tab_same_bytes(PyObject *a, PyObject *b, Py_ssize_t from, Py_ssize_t to) {
        return memcmp((char *) a + from, (char *) b + from, (size_t) (to - from)) == 0;
    }
    """
    ctypedef void *tab_allocfunc
    bint TAB_FAST_NEW
    tab_allocfunc tab_alloc_of(object cls)
    bint tab_is_abstract(object cls)
    object tab_fast_new(tab_allocfunc alloc, object cls, object proto, Py_ssize_t core_game_at, object game)
    bint tab_same_bytes(object a, object b, Py_ssize_t start, Py_ssize_t end)
    object tab_new_state(object base, object cls, object empty)

MAX_NODES = SR_MAX_NODES
MAX_THREADS = SR_MAX_THREADS
MAX_PLAYERS = SR_MAX_PLAYERS
_U64 = 1 << 64
# the move stack keeps a copy of the state every SNAP_EVERY actions, so that a
# pop replays at most SNAP_EVERY - 1 actions (in C) from the nearest copy
cdef enum:
    SNAP_EVERY = 8


cdef list _int_list(const int *buf, Py_ssize_t n):
    """A list of n Python ints from a C array (preallocated: one C call per item)."""
    cdef list out = PyList_New(n)
    cdef Py_ssize_t i
    cdef object x
    for i in range(n):
        x = buf[i]
        Py_INCREF(x)
        PyList_SetItem(out, i, x)
    return out


def game_names():
    """Names of the games registered in C, in registry order."""
    return [sr_game_at(i).name.decode() for i in range(sr_game_count())]


cdef const sr_game_def *_find(str name) except NULL:
    cdef bytes raw = name.encode()
    cdef const sr_game_def *d = sr_find_game(raw)
    if d == NULL:
        raise ValueError(f"unknown game {name!r}; registered: {', '.join(game_names())}")
    return d


def game_spec(str name):
    """(data file names, [(param, min, max, default)], search defaults dict) of a registered game."""
    cdef const sr_game_def *d = _find(name)
    files = [d.data_files[i].decode() for i in range(d.num_data)]
    params = [(d.params[i].name.decode(), d.params[i].min, d.params[i].max, d.params[i].default)
              for i in range(d.num_params)]
    pol = {"c": d.policy.default_c, "shaped": bool(d.policy.default_shaped), "prior": bool(d.policy.default_prior),
           "horizon": bool(d.policy.default_horizon),
           "control_variates": bool(d.policy.default_control_variates)}
    return files, params, pol


# --- interruptible work --------------------------------------------------------------

cdef class StopFlag:
    """A flag another thread sets to end a running search early (the search
    then returns its best move so far): pass it as ``stop=`` to
    ``choose``/``analyse``/``search``.

    >>> from tabuleiro.agents import StopFlag
    >>> stop = StopFlag()
    >>> stop.is_set()
    False
    """
    cdef volatile int flag

    def set(self):
        """Ask the running search to stop.

        >>> from tabuleiro.agents import StopFlag
        >>> stop = StopFlag()
        >>> stop.set()
        >>> stop.is_set()
        True
        """
        self.flag = 1

    def clear(self):
        """Take the stop request back (to reuse the flag for another search).

        >>> from tabuleiro.agents import StopFlag
        >>> stop = StopFlag()
        >>> stop.set()
        >>> stop.clear()
        >>> stop.is_set()
        False
        """
        self.flag = 0

    def is_set(self):
        """Whether a stop was asked for (and not cleared since).

        >>> from tabuleiro.agents import StopFlag
        >>> StopFlag().is_set()
        False
        """
        return self.flag != 0


cdef int _poll_signals(void *ctx) noexcept with gil:
    """Run Python's signal handlers; keep what they raise (KeyboardInterrupt) for later."""
    try:
        PyErr_CheckSignals()
    except BaseException as e:
        (<list> ctx).append(e)
        return 1
    return 0


ctypedef struct search_job:
    const sr_game *g
    sr_evaluator ev
    const void *root
    sr_params p
    sr_result *res
    int rc


cdef void _search_work(void *arg) noexcept nogil:
    cdef search_job *j = <search_job *> arg
    j.rc = sr_search(j.g, &j.ev, j.root, &j.p, j.res)


ctypedef struct playout_job:
    const sr_game *g
    uint64_t n
    uint64_t seed
    volatile int *stop
    sr_playout_stats st
    int rc


cdef void _playout_work(void *arg) noexcept nogil:
    cdef playout_job *j = <playout_job *> arg
    j.rc = sr_random_playouts(j.g, j.n, j.seed, j.stop, &j.st)


ctypedef struct perft_job:
    const sr_game *g
    const void *state
    int depth
    volatile int *stop
    uint64_t nodes
    int rc


cdef void _perft_work(void *arg) noexcept nogil:
    cdef perft_job *j = <perft_job *> arg
    j.nodes = sr_perft(j.g, j.state, j.depth, j.stop, &j.rc)


cdef int _run(void (*work)(void *) noexcept nogil, void *arg, volatile int *stop, const volatile int *external,
              bint is_short) except -1:
    """Run work with the GIL released, Ctrl-C and `external` raising *stop; re-raise KeyboardInterrupt.
    Work known to be short (well under a second) runs inline: a worker thread
    costs more than it does, and Ctrl-C is seen as soon as it returns."""
    cdef list caught = []
    cdef int polled = 0
    if external != NULL and external[0]:
        stop[0] = 1          # a flag set before the start: the work's first read of *stop sees it
    if is_short:
        with nogil:
            work(arg)
        PyErr_CheckSignals()
        return 0
    with nogil:
        sr_run_polled(work, arg, stop, external, _poll_signals, <void *> caught, 20, &polled)
    if caught:
        raise caught[0]
    return 0


# --- games -----------------------------------------------------------------------------

cdef object _NOT_CHECKED = object()     # CoreGame._checked_class before any state is made

cdef class CoreGame:
    """A game instance: its rules (read from its data texts) and its contract table."""
    cdef const sr_game_def *d
    cdef void *rules
    cdef sr_game g
    cdef readonly str name
    cdef public str title
    cdef readonly tuple params
    cdef public object state_class
    cdef object _checked_class      # a state_class _blank has found to be a CoreState subtype
    cdef tab_allocfunc _alloc       # its tp_alloc, when _blank may call it itself (TAB_FAST_NEW)
    cdef public object owner

    def __cinit__(self, str name, texts, params):
        cdef char msg[256]
        cdef int p[4]
        cdef int i
        self._checked_class = _NOT_CHECKED
        self.d = _find(name)
        self.name = name
        self.title = name
        texts = [t.encode("utf-8") for t in texts]
        if len(texts) != self.d.num_data:
            raise ValueError(f"{name} reads {self.d.num_data} data files, not {len(texts)}")
        for i in range(len(texts)):   # C reads a text up to its first NUL: refuse one, never cut there
            if b"\0" in texts[i]:
                line = texts[i].count(b"\n", 0, texts[i].index(b"\0")) + 1
                raise ValueError(f"{name}: the card data cannot be used: {self.d.data_files[i].decode()} "
                                 f"line {line}: a NUL byte")
        params = tuple(params)
        if len(params) != self.d.num_params:
            raise ValueError(f"{name} takes {self.d.num_params} parameters, not {len(params)}")
        for i in range(self.d.num_params):
            v = params[i]
            if isinstance(v, bool) or not isinstance(v, int) or not self.d.params[i].min <= _exact_int(v) <= self.d.params[i].max:
                raise ValueError(f"{name}: {self.d.params[i].name.decode()} must be an integer in "
                                 f"[{self.d.params[i].min}, {self.d.params[i].max}], not {v!r}")
            p[i] = v
        self.params = tuple(_exact_int(v) for v in params)
        cdef const char *ptrs[4]
        memset(ptrs, 0, sizeof(ptrs))
        for i in range(len(texts)):
            ptrs[i] = <bytes> texts[i]
        self.rules = PyMem_Malloc(self.d.rules_size)
        if self.rules == NULL:
            raise MemoryError()
        memset(self.rules, 0, self.d.rules_size)
        if self.d.load_rules(self.rules, ptrs, msg, sizeof(msg)) != SR_OK:
            raise ValueError(f"{name}: the card data cannot be used: {msg.decode('utf-8', 'replace')}")
        if self.d.make(self.rules, p, &self.g, msg, sizeof(msg)) != SR_OK:
            raise ValueError(f"{name}: {msg.decode('utf-8', 'replace')}")

    def __dealloc__(self):
        PyMem_Free(self.rules)

    @property
    def info(self):
        """GameInfo facts as a dict."""
        cdef sr_game_info *i = &self.g.info
        return {"name": i.name.decode(), "num_players": i.num_players,
                "num_distinct_actions": i.num_distinct_actions, "min_utility": i.min_utility,
                "max_utility": i.max_utility, "max_game_length": i.max_game_length,
                "hidden_information": bool(i.hidden_information), "state_size": i.state_size,
                "observation_size": i.observation_size,
                "utility_sum": i.utility_sum if i.constant_sum else None}

    def action_to_string(self, int action):
        """Notation of an action id (ValueError when out of range)."""
        cdef char buf[64]
        cdef int n = -1
        if 0 <= action < self.g.info.num_distinct_actions:
            n = self.g.action_to_string(self.g.rules, action, buf, 64)
        if n < 0:
            raise ValueError(f"action id {action} is not in [0, {self.g.info.num_distinct_actions})")
        return buf[:n].decode("utf-8")

    cdef CoreState _blank(self):
        cdef CoreState st
        cdef tab_allocfunc alloc
        cls = self.state_class
        if cls is self._checked_class and self._alloc != NULL and not tab_is_abstract(cls):
            return <CoreState> tab_fast_new(self._alloc, cls, _PROTO, _CORE_GAME_AT, self)
        if cls is self._checked_class or (PyType_Check(cls) and PyType_IsSubtype(<type> cls, CoreState)):
            if cls is not self._checked_class:  # the subtype test once per class, not per state
                alloc = tab_alloc_of(cls) if _FAST_NEW else NULL
                self._alloc = NULL              # never the new class with the old one's allocator
                self._checked_class = cls
                self._alloc = alloc
            # CoreState.__new__(cls) without the Python-level call of
            # __new__ (a method call with a tuple under the Limited API)
            st = <CoreState> tab_new_state(CoreState, cls, ())   # checked above: no second type test
        else:
            st = CoreState.__new__(cls)     # raises as it always did
        st.core_game = self
        return st

    def new_state(self, uint64_t seed):
        """A new game from seed (its root is itself)."""
        cdef CoreState st = self._blank()
        self.g.new_initial_state(&self.g, st.s.b, seed)
        st._mark_root()
        return st

    def decode(self, fields, *, loose=False):
        """A state from its int64 encoding, checked by the game's C decoder
        (InvalidStateError naming the first problem). ``loose=True`` skips
        the counts the rules imply for the phase and round (deck, hand and
        pile sizes, turns, round wins): only for tests that compose a
        position isolating one ruling; every public loader is strict."""
        cdef Py_ssize_t n = len(fields), i
        cdef char msg[256]
        if n > SR_MAX_ENCODED:
            raise InvalidStateError(f"invalid {self.title} state: {n} fields is more than a state has")
        cdef int64_t buf[1024]
        for i in range(n):
            v = fields[i]
            if isinstance(v, bool) or not isinstance(v, int):
                raise InvalidStateError(f"invalid {self.title} state: field {i} is not an integer: {v!r}")
            if not -(1 << 63) <= v < (1 << 63):
                raise InvalidStateError(f"invalid {self.title} state: field {i} is out of range")
            buf[i] = v
        cdef CoreState st = self._blank()
        msg[0] = 0
        cdef int (*decode)(const void *, const int64_t *, int, void *, char *, size_t) noexcept nogil
        decode = self.g.decode_loose if (loose and self.g.decode_loose != NULL) else self.g.decode
        if decode(self.g.rules, buf, <int> n, st.s.b, msg, sizeof(msg)) != SR_OK:
            raise InvalidStateError(f"invalid {self.title} state: {msg.decode('utf-8', 'replace')}")
        st._mark_root()
        return st

    def random_playouts(self, uint64_t n, uint64_t seed, StopFlag stop=None):
        """Play n uniformly random games from new games in C (GIL released;
        Ctrl-C ends it with KeyboardInterrupt)."""
        cdef playout_job j
        cdef volatile int flag = 0
        j.g = &self.g
        j.n = n
        j.seed = seed
        j.stop = &flag
        j.rc = SR_OK
        _run(_playout_work, &j, &flag, &stop.flag if stop is not None else NULL, n <= 64)
        if j.rc == SR_E_STUCK:
            raise EngineError(f"{self.name}: a random game met an unfinished position with no legal action")
        cdef int np = self.g.info.num_players, q
        return {"games": j.st.games, "actions": j.st.actions, "draws": j.st.draws,
                "wins": [j.st.wins[q] for q in range(np)],
                "returns_sum": [j.st.returns_sum[q] for q in range(np)],
                "score_sum": [j.st.score_sum[q] for q in range(np)],
                "stopped": j.rc == SR_E_STOPPED}


# --- states ----------------------------------------------------------------------------

cdef class CoreState:
    """A state of one game: a flat C struct (copying the position is one
    memcpy), the game it belongs to, and its move stack in C: the actions
    since the root and a copy of the state every SNAP_EVERY actions (copy 0
    is the root), so that a pop replays at most SNAP_EVERY - 1 actions. A
    clone copies the stack too, so its cost grows with the game's length.

    The root is copied lazily: while the stack is empty the state itself is
    the root, and copy 0 is written by the first push (``root_saved``), so a
    new state, a determinization or a clone of a root allocates nothing but
    the object (Capulana's 4 copies of 504 bytes went to the C allocator on
    every determinize)."""
    # the layout tab_fast_new writes into (the Limited API build): checked at import, _measure_state_layout
    cdef sr_state_buf s
    cdef readonly CoreGame core_game
    cdef int *hist              # the actions since the root
    cdef Py_ssize_t n_hist, cap_hist
    cdef uint8_t *snaps         # copy k: the state after k * SNAP_EVERY actions
    cdef Py_ssize_t cap_snaps   # copies the buffer holds (in use: n_hist // SNAP_EVERY + 1)
    cdef bint root_saved        # copy 0 holds the root (always so while n_hist > 0)

    def __dealloc__(self):
        PyMem_Free(self.hist)
        PyMem_Free(self.snaps)

    @property
    def game(self):
        """The Game this state belongs to."""
        self._g()
        return self.core_game.owner

    def __init__(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} is not made directly: use load_game(...).new_initial_state(seed=...) "
                        "or from_dict(...)")

    cdef inline const sr_game *_g(self) except NULL:
        if self.core_game is None:
            raise TypeError(f"this {type(self).__name__} was not made by a game: use load_game(...)")
        return &self.core_game.g

    cdef int _reserve(self, Py_ssize_t n_hist, Py_ssize_t n_snaps) except -1:
        """Room for n_hist actions and n_snaps copies (MemoryError, stack unchanged, if not)."""
        cdef Py_ssize_t size = self.core_game.g.info.state_size, cap
        cdef void *p
        if n_hist > self.cap_hist:
            cap = max(n_hist, 2 * self.cap_hist, 64)
            p = PyMem_Realloc(self.hist, cap * sizeof(int))
            if p == NULL:
                raise MemoryError()
            self.hist = <int *> p
            self.cap_hist = cap
        if n_snaps > self.cap_snaps:
            cap = max(n_snaps, 2 * self.cap_snaps, 4)
            p = PyMem_Realloc(self.snaps, cap * size)
            if p == NULL:
                raise MemoryError()
            self.snaps = <uint8_t *> p
            self.cap_snaps = cap
        return 0

    cdef inline int _mark_root(self) except -1:
        """Make the current state the root: an empty move stack (copy 0 is
        written by the first push)."""
        self.n_hist = 0
        self.root_saved = False
        return 0

    cdef inline int _reserve_push(self) except -1:
        """Room for one more action and its copy, and the root saved as copy
        0 when the stack is empty: called before a move is applied, so that a
        push that fails leaves the state untouched."""
        self._reserve(self.n_hist + 1, (self.n_hist + 1) // SNAP_EVERY + 1)
        if not self.root_saved:     # n_hist == 0: the state is the root
            memcpy(self.snaps, self.s.b, self.core_game.g.info.state_size)
            self.root_saved = True
        return 0

    cdef int _record(self, int action) except -1:
        """Push action, already applied to the state, on the move stack
        (after _reserve_push)."""
        cdef Py_ssize_t n = self.n_hist + 1, size = self.core_game.g.info.state_size
        self.hist[n - 1] = action
        if n % SNAP_EVERY == 0:
            memcpy(self.snaps + (n // SNAP_EVERY) * size, self.s.b, size)
        self.n_hist = n
        return 0

    cdef int _copy_stack(self, CoreState src) except -1:
        """This state's move stack := a copy of src's (nothing to copy while
        src's stack is empty: src, and so this state, is its own root)."""
        cdef Py_ssize_t n_snaps = src.n_hist // SNAP_EVERY + 1
        if src.n_hist == 0:
            return self._mark_root()
        self._reserve(src.n_hist, n_snaps)
        if src.n_hist:
            memcpy(self.hist, src.hist, src.n_hist * sizeof(int))
        memcpy(self.snaps, src.snaps, n_snaps * self.core_game.g.info.state_size)
        self.n_hist = src.n_hist
        self.root_saved = True
        return 0

    # --- facts -----------------------------------------------------------------------
    @property
    def current_player(self):
        """The player to move, or None once the game is over."""
        cdef const sr_game *g = self._g()
        cdef int p = g.current_player(g.rules, self.s.b)
        return None if p == SR_TERMINAL else p

    @property
    def is_terminal(self):
        """True once the game is over."""
        cdef const sr_game *g = self._g()
        return g.current_player(g.rules, self.s.b) == SR_TERMINAL

    def legal_actions(self):
        """Legal action ids, sorted ascending (empty once the game is over)."""
        return self._legal_actions_c()

    cdef list _legal_actions_c(self):
        cdef const sr_game *g = self._g()
        cdef int buf[1024]
        cdef int n = g.legal_actions(g.rules, self.s.b, buf)
        return _int_list(buf, n)

    def legal_action_mask(self):
        """bytes of length num_distinct_actions: 1 where the action is legal."""
        cdef const sr_game *g = self._g()
        cdef bytearray mask = bytearray(g.info.num_distinct_actions)
        sr_legal_mask(g, self.s.b, <uint8_t *> (<char *> mask))
        return bytes(mask)

    def returns(self):
        """The game's true per-player returns (all 0.0 until it ends)."""
        return self._returns_c()

    cdef list _returns_c(self):
        cdef const sr_game *g = self._g()
        cdef double r[5]
        g.returns(g.rules, self.s.b, r)
        return [r[i] for i in range(g.info.num_players)]

    def scores(self):
        """Each player's score as the game counts it now."""
        cdef const sr_game *g = self._g()
        cdef int sc[5]
        g.scores(g.rules, self.s.b, sc)
        return [sc[i] for i in range(g.info.num_players)]

    def infostate_key(self, player):
        """64-bit hash of everything `player` sees (equal views, equal keys)."""
        return self._infostate_key(player)

    cdef object _infostate_key(self, object player):
        cdef const sr_game *g = self._g()
        cdef int p = _check_player(player, g.info.num_players)
        return g.infostate_key(g.rules, self.s.b, p)

    # --- moves -----------------------------------------------------------------------
    def _apply_action(self, int action):
        """Apply action if legal and push it on the stack: 0; else the
        sr_error code (the state untouched)."""
        return self._apply_c(action)

    cdef int _apply_c(self, int action) except -1:
        cdef const sr_game *g = self._g()
        self._reserve_push()
        cdef int rc = sr_apply_checked(g, self.s.b, action)
        if rc == SR_OK:
            self._record(action)
        return rc

    def try_push(self, action):
        """Play action id `action` if it is legal now and put it on the move
        stack: True. False, the state untouched, when it is not (not one of
        the legal ids, out of [0, num_distinct_actions) included, or the game
        is over): no exception and no message are built on that path. An int
        or numpy integer; TypeError for anything else, bools included."""
        return self._try_push(action)

    cdef object _try_push(self, object action):
        cdef const sr_game *g = self._g()
        if type(action) is not int:
            action = _action_id(action)
        if not 0 <= action < g.info.num_distinct_actions:
            return False
        cdef int a = action
        self._reserve_push()
        if sr_apply_checked(g, self.s.b, a) != SR_OK:
            return False
        self._record(a)
        return True

    def observe_into(self, player, obs, mask):
        """`player`'s observation in one call: the tensor into `obs` (float32)
        and into `mask` (uint8/int8) the legal-action mask when `player` is to
        move, all zeros otherwise. Both buffers are checked before either is
        written. The legal count (0 when not to move)."""
        return _observe_all(self, player, obs, mask)

    def _pop(self):
        """Undo the last action (replayed in C from the nearest copy, at
        most SNAP_EVERY - 1 actions); return its id."""
        return self._pop_c()

    cdef object _pop_c(self):
        cdef const sr_game *g = self._g()
        if self.n_hist == 0:
            raise IndexError("pop from an empty move stack")
        cdef Py_ssize_t n = self.n_hist - 1, k = n // SNAP_EVERY, i
        cdef int last = self.hist[n]
        memcpy(self.s.b, self.snaps + k * g.info.state_size, g.info.state_size)
        for i in range(k * SNAP_EVERY, n):
            g.apply(g.rules, self.s.b, self.hist[i])
        self.n_hist = n
        return last

    def _history(self):
        self._g()
        return _int_list(self.hist, self.n_hist)

    def _root_state(self):
        """The state the move stack starts from, as a new state with an empty stack."""
        self._g()
        cdef CoreState st = self.core_game._blank()
        memcpy(st.s.b, self.snaps if self.n_hist else self.s.b, self.core_game.g.info.state_size)
        st._mark_root()
        return st

    def clone(self):
        """An independent copy (its move stack too)."""
        return self._clone_c()

    cdef CoreState _clone_c(self):
        cdef const sr_game *g = self._g()
        cdef CoreState c = self.core_game._blank()
        memcpy(c.s.b, self.s.b, g.info.state_size)
        c._copy_stack(self)
        return c

    def _encode(self):
        """The canonical int64 encoding of the state (what decode reads)."""
        cdef const sr_game *g = self._g()
        cdef int64_t buf[1024]
        cdef int n = g.encode(g.rules, self.s.b, buf, SR_MAX_ENCODED)
        if n < 0:
            raise EngineError(f"{self.core_game.name}: the state does not encode")
        return [buf[i] for i in range(n)]

    def determinize(self, player, seed):
        """A full state drawn uniformly from those consistent with
        ``view(player)``: it depends only on that view and ``seed``, and its
        ``view(player)`` equals this state's. The player and the seed are
        checked here, in C (ValueError naming the bad one, the player
        first), so a call runs no Python code.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> world = s.determinize(0, seed=5)
        >>> world.view(0) == s.view(0)
        True
        """
        return self._determinize_c(player, seed)

    def _determinize(self, player, seed):
        """``determinize`` under its older private name."""
        return self._determinize_c(player, seed)

    cdef CoreState _determinize_c(self, object player, object seed):
        cdef const sr_game *g = self._g()
        cdef int p = _check_player(player, g.info.num_players)
        cdef uint64_t s = _seed_arg(seed)
        cdef CoreState c = self.core_game._blank()
        g.determinize(g.rules, self.s.b, p, s, c.s.b)
        c._mark_root()
        return c

    def _same_position(self, CoreState other):
        """True when both are of one game and encode equally."""
        if other is None or self.core_game is None or other.core_game is None or self.core_game.d != other.core_game.d:
            return False
        return self._encode() == other._encode()

    # --- loops in C --------------------------------------------------------------------
    def perft(self, depth, *, stop=None):
        """Number of positions `depth` actions deep (C, on a copy, GIL released;
        Ctrl-C raises KeyboardInterrupt). With ``stop`` (an
        ``agents.StopFlag``), None when the flag ends it: C reads the flag
        before any work and before every child of every node above the last
        level, so a stop takes effect within a few milliseconds (issue 26).

        >>> from tabuleiro import agents, toy
        >>> s = toy.new_game(seed=2)
        >>> s.perft(3), s.perft(3, stop=agents.StopFlag())
        (8, 8)
        >>> flag = agents.StopFlag()
        >>> flag.set()
        >>> s.perft(3, stop=flag) is None
        True
        """
        cdef const sr_game *g = self._g()
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= _exact_int(depth) <= 64:
            raise ValueError(f"depth must be an integer in [0, 64], not {depth!r}")
        if stop is not None and not isinstance(stop, StopFlag):
            raise TypeError(f"stop must be an agents.StopFlag or None, not {type(stop).__name__}")
        cdef sr_state_buf copy = self.s
        cdef perft_job j
        cdef volatile int flag = 0
        cdef bint is_short = depth <= 2
        j.g = g
        j.state = copy.b
        j.depth = depth
        # work run inline (short) reads an external flag directly; on a worker
        # thread it reads `flag`, which the polling thread raises from it
        j.stop = &(<StopFlag> stop).flag if (is_short and stop is not None) else &flag
        j.rc = SR_OK
        _run(_perft_work, &j, &flag, &(<StopFlag> stop).flag if stop is not None else NULL, is_short)
        if j.rc == SR_E_STOPPED:
            return None
        return j.nodes

    def _search(self, int kind, uint64_t seed, int64_t iterations, double time_limit, double c, bint heuristic,
                bint shaped, bint prior, bint horizon, bint control_variates, int threads, int64_t max_nodes,
                StopFlag stop=None):
        """Search from this state (a copy) with the GIL released. Returns
        (best, [(action, visits, mean)], iterations, nodes, pool_full, stopped)."""
        cdef const sr_game *g = self._g()
        cdef sr_state_buf root = self.s
        cdef volatile int flag = 0
        cdef search_job j
        j.g = g
        j.root = root.b
        sr_make_evaluator(self.core_game.d.policy, heuristic, shaped, prior, horizon, control_variates, &j.ev)
        j.p.kind = kind
        j.p.seed = seed
        j.p.iterations = iterations
        j.p.time_limit = time_limit
        j.p.c = c
        j.p.rollout = heuristic
        j.p.threads = threads
        j.p.max_nodes = max_nodes
        # a budget of a few hundred iterations and no clock runs inline (and
        # then sees an external stop flag directly)
        cdef bint is_short = 0 < iterations <= 512 and time_limit == 0
        j.p.stop = &stop.flag if (is_short and stop is not None) else &flag
        j.res = <sr_result *> malloc(sizeof(sr_result))
        if j.res == NULL:
            raise MemoryError()
        try:
            _run(_search_work, &j, &flag, &stop.flag if stop is not None else NULL, is_short)
            _raise_for(j.rc, self.core_game.name)
            stats = [(j.res.stats[i].action, j.res.stats[i].visits, j.res.stats[i].mean) for i in range(j.res.n)]
            return j.res.best, stats, j.res.iterations, j.res.nodes, bool(j.res.pool_full), bool(j.res.stopped)
        finally:
            free(j.res)

    def _greedy(self, seed):
        """The greedy policy's action (C, on a copy)."""
        return self._greedy_c(_seed_arg(seed))

    cdef object _greedy_c(self, uint64_t seed):
        cdef const sr_game *g = self._g()
        cdef sr_state_buf copy = self.s
        cdef int buf[1024]
        cdef uint64_t rng = seed
        cdef int n = g.legal_actions(g.rules, copy.b, buf), i
        if n == 0:
            raise GameOverError("the game is over: there is no move to choose")
        with nogil:
            i = self.core_game.d.policy.greedy_index(g.rules, copy.b, buf, n, &rng)
        if i < 0:
            raise MemoryError()
        return buf[i]


cdef int _raise_for(int rc, str game) except -1:
    if rc == SR_OK:
        return 0
    if rc == SR_E_TERMINAL:
        raise GameOverError("the game is over: there is no move to search")
    if rc == SR_E_PARAM:
        raise ValueError("search parameters out of range (see tabuleiro.agents for the limits)")
    if rc == SR_E_NOMEM:
        raise MemoryError("the search could not allocate its tree: lower max_nodes or threads")
    if rc == SR_E_STUCK:
        raise EngineError(f"{game}: the search met an unfinished position with no legal action")
    raise EngineError(f"{game}: search failed with code {rc}")


cdef object _action_id(object action):
    """A non-int action id as a Python int (numpy integers); TypeError for
    anything else, bools included."""
    if not isinstance(action, (bool, _np_bool_types())):
        try:
            return _operator.index(action)
        except TypeError:
            pass
    raise TypeError(f"an action is an integer id, not {type(action).__name__} {repr(action)[:60]}")


cdef extern from "Python.h":
    unsigned long long PyLong_AsUnsignedLongLong(object o) noexcept
    long PyLong_AsLongAndOverflow(object o, int *overflow) noexcept
    bint PyLong_CheckExact(object o) noexcept
    void *PyErr_Occurred() noexcept
    void PyErr_Clear() noexcept


cdef inline uint64_t _seed_arg(object seed) except? <uint64_t> -1:
    """A public seed argument as a uint64_t: an int in [0, 2**64) directly
    (PyLong_AsUnsignedLongLong checks the sign itself, where Cython's own
    conversion runs a rich comparison under the Limited API); anything else
    through ``_fields.check_seed`` (numpy integers pass, everything else
    gets its ValueError)."""
    cdef unsigned long long v
    if PyLong_CheckExact(seed):
        v = PyLong_AsUnsignedLongLong(seed)
        if v != <unsigned long long> -1 or PyErr_Occurred() == NULL:
            return v
        PyErr_Clear()
    cdef object value = _check_seed(seed)      # its ValueError, or an int in range
    return PyLong_AsUnsignedLongLong(value)


cdef int _check_player(player, int n) except -1:
    """The player as a C int in [0, n), else ValueError. An int subclass is
    judged by its value (``_exact_int``), never by its own comparisons.

    An exact int is read once as a C long (one C call, where the Limited
    API's rich comparisons and conversion made three); anything else takes
    the checks below, whose errors are unchanged."""
    cdef int overflow = 0
    cdef long v
    if PyLong_CheckExact(player):
        v = PyLong_AsLongAndOverflow(player, &overflow)
        if overflow == 0 and 0 <= v < n:
            return <int> v
    if isinstance(player, bool) or not isinstance(player, int):
        raise ValueError(f"player must be an integer in [0, {n - 1}], not {player!r}")
    cdef object p = _exact_int(player)
    if not 0 <= p < n:
        raise ValueError(f"player must be an integer in [0, {n - 1}], not {player!r}")
    return <int> p


cdef object _exact_int(object v):
    """v (an int or an int subclass) as an exact int: the comparisons that
    range-check a value bound for C must be int's own, since a subclass can
    override ``<``/``<=`` and pass any check (player 7 of 2 reached C)."""
    return v if type(v) is int else PyNumber_Index(v)


# --- a state object under the Limited API (CoreGame._blank, tab_fast_new) ------------
# What tab_fast_new relies on, measured on a prototype that CoreState's own
# tp_new made: core_game right after `s` (the declaration order), and an
# object tab_fast_new makes equal to the prototype byte for byte (keep this
# in mind when adding a CoreState field that tp_new initialises). _blank
# calls a class's tp_alloc itself only in the Limited API build and only
# when this layout checks out; otherwise it goes through tp_new as before.
cdef object _PROTO = None
cdef Py_ssize_t _CORE_GAME_AT = 0
cdef bint _FAST_NEW = False


cdef int _measure_state_layout() except -1:
    global _PROTO, _CORE_GAME_AT, _FAST_NEW
    cdef CoreState proto = <CoreState> tab_new_state(CoreState, CoreState, ())
    cdef char *base = <char *> <PyObject *> proto
    cdef Py_ssize_t core_game_at = (<char *> &proto.s) - base + <Py_ssize_t> sizeof(sr_state_buf)
    cdef Py_ssize_t size = CoreState.__basicsize__
    cdef tab_allocfunc alloc
    _PROTO = proto
    _CORE_GAME_AT = core_game_at
    # core_game sits between `s` and `hist` with no gap (the declaration order)
    if not (TAB_FAST_NEW and (<char *> &proto.hist) - base == core_game_at + <Py_ssize_t> sizeof(PyObject *)):
        return 0
    # and what tab_fast_new makes is, byte for byte after the header, what
    # tp_new made (the vtable pointer where tab_fast_new copies it, None in
    # core_game): a field a later CoreState or Cython initialises in tp_new
    # (an object field set to None, say) turns the fast path off, not into a crash
    alloc = tab_alloc_of(CoreState)
    if alloc == NULL:
        return 0
    made = tab_fast_new(alloc, CoreState, proto, core_game_at, None)
    _FAST_NEW = tab_same_bytes(made, proto, sizeof(PyObject), size)
    return 0


_measure_state_layout()


def _state_allocation():
    """How CoreGame._blank makes state objects: "tp_alloc" (the Limited API
    build, the class's allocator called directly) or "tp_new"."""
    return "tp_alloc" if _FAST_NEW else "tp_new"


include "capivarias_extras.pxi"
include "capulana_extras.pxi"
include "batch.pxi"
include "fastcall.pxi"
include "state_json.pxi"
