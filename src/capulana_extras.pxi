# Capulana's own part of the binding (included by _core.pyx): weaving options,
# the R10 breakdown of a row, the R11 objectives a row meets, a row's visible strips. Everything else goes
# through the contract.
from cpython.pyport cimport PY_SSIZE_T_MAX
from capulana_c cimport (cp_rules, cp_state, cp_strips, cp_weave_option, cp_set, CP_MAX_STRIPS, CP_NOBJECTIVES,
                         cp_weaving_options, cp_score_sets, cp_row_strips, cp_row_score, cp_objectives_met)

cdef const sr_game_def *CP_DEF = sr_find_game(b"capulana")
cdef str CP_COLOURS = "-YGRBO?*"
cdef str CP_PATTERNS = "-DTCZL?*"


cdef inline cp_state *_cp(CoreState st) except NULL:
    st._g()
    if st.core_game.d != CP_DEF:
        raise TypeError(f"a Capulana state is needed, not a {st.core_game.name} one")
    return <cp_state *> st.s.b


cdef inline str _cp_strip(int colour, int pattern):
    return CP_COLOURS[colour] + CP_PATTERNS[pattern]


def capulana_score_sets(colours, patterns):
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


def capulana_objectives_met(CoreGame game, colours, patterns, int pieces, int hand, int objectives):
    """R11: the mask of the objectives in the mask ``objectives`` (bit i:
    objective i) that a row of strip codes meets, made of ``pieces`` cards
    with ``hand`` cards in hand (cp_objectives_met, the test cp_scores uses)."""
    cdef uint8_t col[64]
    cdef uint8_t pat[64]
    cdef int n = len(colours), i
    if game.d != CP_DEF:
        raise TypeError(f"a Capulana game is needed, not a {game.name} one")
    if n > CP_MAX_STRIPS or len(patterns) != n:
        raise ValueError(f"a row of at most {CP_MAX_STRIPS} strips, not {n}")
    if not 0 <= objectives < (1 << CP_NOBJECTIVES):
        raise ValueError(f"objectives must be a mask of {CP_NOBJECTIVES} bits, not {objectives}")
    for i in range(n):
        col[i] = colours[i]
        pat[i] = patterns[i]
    return cp_objectives_met(<const cp_rules *> game.rules, objectives, col, pat, n, pieces, hand)


cdef object CP_MOVE = int


def capulana_set_move_class(cls):
    """The class WeaveOption.moves builds from action ids (tabuleiro.capulana.Move)."""
    global CP_MOVE
    CP_MOVE = cls


# A freelist: a loop over the options makes one object per option (thousands
# mid-game) and drops them all before the next call. Under the Limited API
# each allocation and each deallocation otherwise looks the type's slot up
# (PyType_GetSlot), about 50 instructions an option on some 1,000 (issue 27);
# from the freelist, neither build calls the allocator. It keeps at most
# 4,096 freed objects of 88 bytes (360 KB) for the next call.
@cython.freelist(4096)
cdef class WeaveOption:
    """One complete weaving step (cp_weaving_options): its moves (0- and 1-card
    steps end with ``stop``), the resulting visible ``strips``, the capulana
    ``score`` (R10) and the ``final_score`` (R11, objectives included) it
    yields. Held as the C record; strips and moves are built on access.

    >>> from tabuleiro import capulana
    >>> s = capulana.new_game(players=2, seed=1)
    >>> while s.phase != "weave":
    ...     s.push(s.legal_moves()[0])
    >>> option = s.weaving_options()[0]
    >>> option
    WeaveOption(moves='stop', strips='BC BC OC', score=3, final_score=6)
    >>> option.moves, option.actions, option.cards
    ((Move.parse('stop'),), (62,), 0)
    """
    cdef cp_weave_option o

    @property
    def actions(self):
        """The atomic action ids, in order."""
        return tuple([self.o.actions[i] for i in range(self.o.n_actions)])

    @property
    def moves(self):
        """The moves, in order."""
        return tuple([CP_MOVE(self.o.actions[i]) for i in range(self.o.n_actions)])

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
            out.append(_cp_strip(code & 7, code >> 3))
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


def capulana_row_strips(CoreState st, int p):
    """Visible strips of player p's capulana, left to right, as text."""
    cdef cp_state *s = _cp(st)
    cdef uint8_t col[64]
    cdef uint8_t pat[64]
    if not 0 <= p < s.players:
        raise ValueError(f"player must be an integer in [0, {s.players - 1}], not {p}")
    cdef int n = cp_row_strips(s, p, col, pat)
    return [_cp_strip(col[i], pat[i]) for i in range(n)]


def capulana_row_scores(CoreState st):
    """Each player's capulana score (R10, no objectives)."""
    cdef cp_state *s = _cp(st)
    return [cp_row_score(&s.row[i], s.nstrips[i]) for i in range(s.players)]


@cython.collection_type("sequence")   # Py_TPFLAGS_SEQUENCE: `match` sequence patterns, in both builds
cdef class WeaveOptions:
    """Every complete weaving step of a position (what
    ``State.weaving_options()`` returns): a read-only sequence over one packed
    C buffer of the options, each :class:`WeaveOption` made on first access
    and kept, so ``options[i] is options[i]``. A call pays for the search in
    C and one buffer, not for an object per option (thousands mid-game) that
    a caller may never look at (issue 27).

    It reads as the list it replaced: ``len``, indices (negative too),
    slices (lists), iteration both ways, ``in``, ``index``, ``count``,
    ``match`` sequence patterns, and it compares equal to a list of the same
    options (not to a tuple, as a list does not). It is not a list: no
    ``sort``, ``append``, ``+``, ``*``, ``<`` or ``copy()``, and
    ``copy.copy`` gives a list; ``list(options)`` is a plain list to change.

    >>> from tabuleiro import capulana
    >>> s = capulana.new_game(players=2, seed=1)
    >>> s.weaving_options()
    []
    >>> while s.phase != "weave":
    ...     s.push(s.legal_moves()[0])
    >>> options = s.weaving_options()
    >>> len(options), options[0] is options[0], options[-1] == list(options)[-1]
    (1701, True, True)
    >>> options[:2]
    [WeaveOption(moves='stop', strips='BC BC OC', score=3, final_score=6),
     WeaveOption(moves='F06 n+, F30 n>1', strips='BC BC OC YT RT RT OZ OL GL GZ', score=6, final_score=9)]
    """
    cdef cp_weave_option *buf     # the n options, in the order the C search gave them
    cdef Py_ssize_t n
    cdef PyObject **made           # made[i]: option i's object once asked for (NULL before)

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.made != NULL:
            for i in range(self.n):
                Py_XDECREF(self.made[i])
            PyMem_Free(self.made)
        PyMem_Free(self.buf)

    def __init__(self, *args, **kwargs):
        raise TypeError("WeaveOptions is not made directly: use State.weaving_options()")

    cdef object _item(self, Py_ssize_t i):
        """Option i (0 <= i < n), made the first time."""
        cdef WeaveOption w
        if self.made == NULL:
            self.made = <PyObject **> PyMem_Calloc(self.n, sizeof(PyObject *))
            if self.made == NULL:
                raise MemoryError()
        if self.made[i] == NULL:
            w = WeaveOption.__new__(WeaveOption)
            if self.made[i] == NULL:    # not made meanwhile (a collection run by the allocation can run Python code)
                w.o = self.buf[i]
                Py_INCREF(w)
                self.made[i] = <PyObject *> w
        return <object> self.made[i]

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        cdef Py_ssize_t i, start, stop, step
        cdef object k
        if isinstance(index, slice):
            start, stop, step = index.indices(self.n)
            return [self._item(i) for i in range(start, stop, step)]
        try:
            k = PyNumber_Index(index)   # a Python int of any size: 2**70 is out of range, not an overflow
        except TypeError:
            raise TypeError(f"WeaveOptions indices must be integers or slices, not {type(index).__name__}") from None
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("WeaveOptions index out of range")
        i = k
        return self._item(i)

    def __iter__(self):
        cdef Py_ssize_t i
        for i in range(self.n):
            yield self._item(i)

    def __reversed__(self):
        cdef Py_ssize_t i
        for i in range(self.n - 1, -1, -1):
            yield self._item(i)

    cdef Py_ssize_t _find(self, value, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t step) except -2:
        """The first i in range(start, stop, step) whose option is ``value``
        as a list compares (identity, then ==, either side's __eq__); -1 if none."""
        cdef Py_ssize_t i
        cdef object o
        for i in range(start, stop, step):
            o = self._item(i)
            if o is value or o == value:
                return i
        return -1

    def __contains__(self, value):
        return self._find(value, 0, self.n, 1) >= 0

    def index(self, value, start=0, stop=PY_SSIZE_T_MAX):
        """The first index of ``value`` in ``[start, stop)`` (ValueError if
        it is not there), as ``list.index``.

        >>> from tabuleiro import capulana
        >>> s = capulana.new_game(players=2, seed=1)
        >>> while s.phase != "weave":
        ...     s.push(s.legal_moves()[0])
        >>> options = s.weaving_options()
        >>> options.index(options[5])
        5
        >>> options.index(options[5], 6, 9)
        Traceback (most recent call last):
        ...
        ValueError: the weaving option is not in the options
        """
        cdef Py_ssize_t i, step
        start, stop, step = slice(PyNumber_Index(start), PyNumber_Index(stop)).indices(self.n)
        i = self._find(value, start, stop, step)
        if i < 0:
            raise ValueError("the weaving option is not in the options")
        return i

    def count(self, value):
        """How many options equal ``value``, as ``list.count`` (0 or 1 for a
        WeaveOption: the options are deduplicated).

        >>> from tabuleiro import capulana
        >>> s = capulana.new_game(players=2, seed=1)
        >>> while s.phase != "weave":
        ...     s.push(s.legal_moves()[0])
        >>> options = s.weaving_options()
        >>> options.count(options[0]), options.count("stop")
        (1, 0)
        """
        return sum(1 for o in self if o is value or o == value)

    def __eq__(self, other):     # (Cython derives __ne__ from it)
        if isinstance(other, (WeaveOptions, list)):
            return len(other) == self.n and list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        return repr(list(self))

    def __reduce__(self):
        return (list, (list(self),))


def capulana_weaving_options(CoreState st):
    """WeaveOptions for the player to move (C on a copy, GIL released)."""
    cdef cp_state copy = _cp(st)[0]
    cdef const cp_rules *r = <const cp_rules *> st.core_game.g.rules
    cdef int cap = 4096, n = -1
    cdef cp_weave_option *buf = NULL
    cdef void *fit
    cdef WeaveOptions out = WeaveOptions.__new__(WeaveOptions)
    while True:
        buf = <cp_weave_option *> PyMem_Malloc(cap * sizeof(cp_weave_option))
        if buf == NULL:
            raise MemoryError()
        with nogil:
            n = cp_weaving_options(r, &copy, buf, cap)
        if n >= 0:
            break
        PyMem_Free(buf)
        buf = NULL
        cap *= 4
    # the options, not the room they were searched in, are kept
    fit = PyMem_Realloc(buf, max(n, 1) * sizeof(cp_weave_option))
    if fit != NULL:
        buf = <cp_weave_option *> fit
    out.buf = buf
    out.n = n
    return out
