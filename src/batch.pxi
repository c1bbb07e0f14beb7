# --- observations and batched stepping (csrc/batch.h; tabuleiro.vector) ---------------
# Included at the end of _core.pyx. Buffers are any writable C-contiguous
# objects with the buffer protocol (numpy arrays, array.array, bytearray):
# C writes into them directly, nothing is copied.
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_C_CONTIGUOUS, PyBUF_FORMAT
from libc.stdint cimport int32_t, uintptr_t
from array import array as _array
import operator as _operator
import sys as _sys
_LITTLE = _sys.byteorder == "little"


cdef int _get_buf(object obj, Py_buffer *view, Py_ssize_t nbytes, str what, bint writable) except -1:
    flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (PyBUF_WRITABLE if writable else 0)
    PyObject_GetBuffer(obj, view, flags)
    if view.len < nbytes:
        PyBuffer_Release(view)
        raise ValueError(f"{what}: the buffer has {view.len} bytes, {nbytes} are needed")
    return 0


cdef bint _has_format(Py_buffer *view, bytes codes):
    """The buffer's items are of one of the struct codes in `codes` (native
    size and byte order, with or without a byte-order prefix)."""
    if view.format == NULL:
        return False
    cdef bytes fmt = view.format
    if fmt[:1] in (b"@", b"=", b"<" if _LITTLE else b">"):
        fmt = fmt[1:]
    return len(fmt) == 1 and fmt in codes


cdef bint _is_float32(Py_buffer *view):
    """The buffer's items are native float32."""
    return view.itemsize == sizeof(float) and _has_format(view, b"f")


_INT32 = b"il" if sizeof(long) == 4 else b"i"    # native int32 codes ('l' where a long is 4 bytes)


cdef bint _is_int32(Py_buffer *view):
    """The buffer's items are native int32."""
    return view.itemsize == 4 and _has_format(view, _INT32)


cdef int _observe_into(CoreState st, int player, object out) except -1:
    cdef const sr_game *g = st._g()
    cdef Py_buffer view
    _get_buf(out, &view, sizeof(float) * g.info.observation_size, "observation", True)
    try:
        if not _is_float32(&view):
            raise ValueError(f"observation: a float32 buffer is needed, not one of format {view.format.decode()!r}")
        g.observation(g.rules, st.s.b, player, <float *> view.buf)
    finally:
        PyBuffer_Release(&view)
    return 0


def observation(CoreState st, player, out=None):
    """The observation tensor of `player` (docs/observations.md): written
    into `out` (a writable C-contiguous float32 buffer of at least
    observation_size items) and returned; a new array('f') without one."""
    cdef const sr_game *g = st._g()
    cdef int p = _check_player(player, g.info.num_players)
    if out is None:
        out = _array("f", bytes(sizeof(float) * g.info.observation_size))
    _observe_into(st, p, out)
    return out


cdef int _get_mask(const sr_game *g, object mask, Py_buffer *view) except -1:
    """Acquire mask as a writable byte buffer of num_distinct_actions (released on error)."""
    _get_buf(mask, view, g.info.num_distinct_actions, "mask", True)
    if view.itemsize != 1:
        PyBuffer_Release(view)
        raise ValueError("mask: a uint8 / int8 buffer is needed")
    return 0


def legal_mask_into(CoreState st, out):
    """Write the legal-action mask (uint8, num_distinct_actions) into out; the legal count."""
    cdef const sr_game *g = st._g()
    cdef Py_buffer view
    _get_mask(g, out, &view)
    try:
        return sr_legal_mask(g, st.s.b, <uint8_t *> view.buf)
    finally:
        PyBuffer_Release(&view)


def observe_into(CoreState st, player, obs, mask):
    """One player's whole PettingZoo observation in one call: the tensor into
    `obs` (float32) and, into `mask` (uint8/int8), the legal-action mask when
    `player` is to move, all zeros otherwise. Both buffers are checked before
    either is written. Returns the legal count (0 when not to move).
    (State.observe_into is this, for the layers above the core.)"""
    return _observe_all(st, player, obs, mask)


cdef int _observe_all(CoreState st, object player, object obs, object mask) except -1:
    """observe_into's work (the function and the CoreState method)."""
    cdef const sr_game *g = st._g()
    cdef Py_buffer view
    cdef int n = 0
    cdef int p = _check_player(player, g.info.num_players)
    _get_mask(g, mask, &view)
    try:
        _observe_into(st, p, obs)
        if g.current_player(g.rules, st.s.b) == p:
            n = sr_legal_mask(g, st.s.b, <uint8_t *> view.buf)
        else:
            memset(view.buf, 0, g.info.num_distinct_actions)
        return n
    finally:
        PyBuffer_Release(&view)


#: The most memory one batch may take, its C states and its numpy outputs
#: together (tabuleiro.vector.MAX_BATCH_BYTES): a larger n is refused before
#: anything is allocated.
MAX_BATCH_BYTES = 4 << 30
_INT32_MAX = (1 << 31) - 1


cdef object _index(str name, object value, object lo, object hi, str why=""):
    """value as a Python int in [lo, hi]: TypeError for a non-integer (bools
    and floats included; numpy integers are integers), ValueError out of
    range, each naming the parameter and its range."""
    if not isinstance(value, (bool, _np_bool_types())):
        try:
            v = _operator.index(value)
        except TypeError:
            pass
        else:
            if not lo <= v <= hi:
                raise ValueError(f"{name} must be an integer in [{lo}, {hi}]{why}, not {v}")
            return v
    raise TypeError(f"{name} must be an integer, not {value!r}")


cdef object _np_bool_cache = None


cdef object _np_bool_types():
    """numpy's bool type when numpy is loaded (it is not an integer here), else bool."""
    global _np_bool_cache
    if _np_bool_cache is None:
        np = _sys.modules.get("numpy")
        if np is None:
            return bool
        _np_bool_cache = np.bool_
    return _np_bool_cache


cdef inline Py_ssize_t _batch_stride(const sr_game_info *i):
    """One game's slot in the batch's state array: its state, aligned."""
    return (i.state_size + SR_STATE_ALIGN - 1) // SR_STATE_ALIGN * SR_STATE_ALIGN


def batch_bytes_per_game(CoreGame cg not None):
    """Bytes one game of a batch of cg takes: its aligned C state, generator,
    the batch's own copies (legal ids, count, length, done), its action slot,
    and the numpy outputs tabuleiro.vector.Batch binds (observation, mask,
    rewards, done, player, length, legal ids, count)."""
    cdef const sr_game_info *i = &cg.g.info
    cdef Py_ssize_t cap = min(i.num_distinct_actions, SR_MAX_LEGAL)
    c_side = _batch_stride(i) + sizeof(uint64_t) + sizeof(int32_t) * (cap + 2) + 1 + sizeof(int32_t)
    outputs = (sizeof(float) * i.observation_size + i.num_distinct_actions + sizeof(float) * i.num_players + 1
               + 3 * sizeof(int32_t) + sizeof(int32_t) * cap)
    return c_side + outputs


def batch_max_games(CoreGame cg not None):
    """The largest n a batch of cg takes: MAX_BATCH_BYTES over batch_bytes_per_game, at most 2**31 - 1."""
    return max(1, min(_INT32_MAX, MAX_BATCH_BYTES // batch_bytes_per_game(cg)))


cdef class CoreBatch:
    """n games of one CoreGame in one aligned C array, with per-game
    generators (rng[i] = splitmix of seed and i) and bound output buffers."""
    cdef CoreGame cg
    cdef readonly int n
    cdef readonly int threads
    cdef size_t stride
    cdef void *raw
    cdef uint8_t *states
    cdef uint64_t *rng
    cdef void *own_mem     # sr_batch_own's arrays: what a step reads back, out of the caller's reach
    cdef sr_batch_own own  # views into own_mem, set once; every sr_batch_out this batch passes carries them
    cdef int cap           # legal_cap, set once (0 until __cinit__ has the game)
    cdef int32_t *acts     # the actions of a step, copied here with the GIL held (no other thread changes them)
    cdef bint started      # reset has run: the states are games
    cdef sr_batch_out out
    cdef Py_buffer bufs[8]
    cdef int nbufs
    cdef readonly object buffers
    cdef bint busy       # a step or reset runs (the GIL is released): another thread must not enter

    def __cinit__(self, CoreGame cg not None, n, uint64_t seed, threads=1):
        """Every parameter is checked here, once, before anything is
        allocated: n in [1, batch_max_games(cg)] (the MAX_BATCH_BYTES limit),
        threads in [1, 64] (TypeError for a non-integer, ValueError out of
        range)."""
        cdef int i
        cdef uint64_t z
        per_game = batch_bytes_per_game(cg)
        game = cg.name + "".join(f" {cg.d.params[k].name.decode()}={cg.params[k]}" for k in range(cg.d.num_params))
        n = _index("n", n, 1, batch_max_games(cg),
                   f" for {game} (a game takes {per_game:,} bytes, a batch at most "
                   f"MAX_BATCH_BYTES = {MAX_BATCH_BYTES >> 30} GiB)")
        threads = _index("threads", threads, 1, 64)
        cdef size_t nn = n      # checked: 1..2**31 - 1, and the whole batch fits MAX_BATCH_BYTES
        self.cg = cg
        self.cap = <int> min(cg.g.info.num_distinct_actions, SR_MAX_LEGAL)
        self.n = n
        self.threads = threads
        self.nbufs = 0
        self.busy = 0
        self.stride = _batch_stride(&cg.g.info)
        self.raw = PyMem_Malloc(self.stride * nn + SR_STATE_ALIGN)
        self.rng = <uint64_t *> PyMem_Malloc(sizeof(uint64_t) * nn)
        # sr_batch_own: legal rows, num_legal, length (int32 each) and done (bytes)
        cdef size_t own_bytes = nn * (sizeof(int32_t) * (<size_t> self.cap + 2) + 1)
        self.own_mem = PyMem_Malloc(own_bytes)
        self.acts = <int32_t *> PyMem_Malloc(sizeof(int32_t) * nn)
        if self.raw == NULL or self.rng == NULL or self.own_mem == NULL or self.acts == NULL:
            raise MemoryError()
        memset(self.own_mem, 0, own_bytes)
        cdef int32_t *words = <int32_t *> self.own_mem
        cdef size_t cap = <size_t> self.cap
        self.own.legal = words
        self.own.num_legal = words + nn * cap
        self.own.length = words + nn * (cap + 1)
        self.own.done = <uint8_t *> (words + nn * (cap + 2))
        self.states = <uint8_t *> ((<uintptr_t> self.raw + SR_STATE_ALIGN - 1) // SR_STATE_ALIGN * SR_STATE_ALIGN)
        memset(self.raw, 0, self.stride * nn + SR_STATE_ALIGN)
        for i in range(<int> nn):   # splitmix64 of (seed, i): independent streams per game
            z = seed + <uint64_t> (i + 1) * <uint64_t> 0x9E3779B97F4A7C15
            z = (z ^ (z >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) * <uint64_t> 0x94D049BB133111EB
            self.rng[i] = z ^ (z >> 31)
        self._release()

    def __dealloc__(self):
        self._release()
        PyMem_Free(self.raw)
        PyMem_Free(self.rng)
        PyMem_Free(self.own_mem)
        PyMem_Free(self.acts)

    cdef int _check_idle(self) except -1:
        if self.busy:
            raise RuntimeError("this batch is being stepped by another thread: one thread at a time")
        return 0

    cdef int _enter(self) except -1:
        # called with the GIL held, so test-and-set is atomic for Python threads
        self._check_idle()
        self.busy = 1
        return 0

    cdef void _release(self):
        cdef int k
        for k in range(self.nbufs):
            PyBuffer_Release(&self.bufs[k])
        self.nbufs = 0
        memset(&self.out, 0, sizeof(sr_batch_out))
        self.out.legal_cap = self.cap
        self.out.own = self.own

    @property
    def legal_cap(self):
        """Row length of the legal-ids buffer: min(num_distinct_actions, SR_MAX_LEGAL)."""
        return self.cap

    def bind(self, obs, mask, rewards, done, player, length, legal=None, num_legal=None):
        """Bind the output buffers (None skips one): obs float32 n x
        observation_size, mask uint8 n x num_distinct_actions, rewards
        float32 n x num_players, done uint8 n, player int32 n, length int32 n,
        legal int32 n x legal_cap, num_legal int32 n (both or neither)."""
        cdef const sr_game *g = &self.cg.g
        cdef Py_ssize_t n = self.n
        cdef int cap = self.cap
        if (legal is None) != (num_legal is None):
            raise ValueError("legal and num_legal are bound together")
        self._check_idle()
        self._release()
        f32, i32, byte = (4, b"f", "float32"), (4, _INT32, "int32"), (1, b"Bb?", "uint8, int8 or bool")
        specs = [(obs, n * g.info.observation_size, f32, "obs"), (mask, n * g.info.num_distinct_actions, byte, "mask"),
                 (rewards, n * g.info.num_players, f32, "rewards"), (done, n, byte, "done"),
                 (player, n, i32, "player"), (length, n, i32, "length"),
                 (legal, n * cap, i32, "legal"), (num_legal, n, i32, "num_legal")]
        cdef void *ptrs[8]
        cdef int k
        cdef Py_buffer *view
        for k in range(8):
            obj, items, (itemsize, codes, kind), what = specs[k]
            ptrs[k] = NULL
            if obj is None:
                continue
            _get_buf(obj, &self.bufs[self.nbufs], items * itemsize, what, True)
            self.nbufs += 1
            view = &self.bufs[self.nbufs - 1]
            if view.itemsize != itemsize or not _has_format(view, codes):
                self._release()
                raise ValueError(f"{what}: a {kind} buffer is needed")
            ptrs[k] = view.buf
        self.out.obs = <float *> ptrs[0]
        self.out.mask = <uint8_t *> ptrs[1]
        self.out.rewards = <float *> ptrs[2]
        self.out.done = <uint8_t *> ptrs[3]
        self.out.player = <int32_t *> ptrs[4]
        self.out.length = <int32_t *> ptrs[5]
        self.out.legal = <int32_t *> ptrs[6]
        self.out.num_legal = <int32_t *> ptrs[7]
        self.buffers = (obs, mask, rewards, done, player, length, legal, num_legal)
        if self.started:   # the new buffers describe the current games at once (a mask is rewritten whole)
            sr_batch_refresh(&self.cg.g, self.states, self.stride, 0, self.n, &self.out)

    def reset(self, seed=None):
        """Restart every game (from new per-game generators when seed is given)."""
        self._enter()   # before the generators change: a refused call changes nothing
        try:
            self._reset(seed)
        finally:
            self.busy = 0

    cdef int _reset(self, seed) except -1:
        cdef uint64_t s, z
        cdef int i
        if seed is not None:
            s = seed
            for i in range(self.n):
                z = s + <uint64_t> (i + 1) * <uint64_t> 0x9E3779B97F4A7C15
                z = (z ^ (z >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
                z = (z ^ (z >> 27)) * <uint64_t> 0x94D049BB133111EB
                self.rng[i] = z ^ (z >> 31)
        with nogil:
            sr_batch_reset(&self.cg.g, self.states, self.stride, self.rng, 0, self.n, &self.out)
        self.started = 1
        return 0

    def step(self, actions=None):
        """One action per game (an int32 buffer of n), or random legal actions
        chosen in C (None). IllegalMoveError names the first illegal one (no
        game is changed then)."""
        cdef int bad = -1, rc
        self._enter()
        try:
            rc = self._step(actions, &bad)
        finally:
            self.busy = 0
        if rc == SR_E_ILLEGAL:
            raise IllegalMoveError(f"game {bad}: action {self.acts[bad]} is not legal")
        if rc == SR_E_STUCK:
            raise EngineError(f"{self.cg.name}: a game met an unfinished position with no legal action")
        return 0

    cdef int _step(self, actions, int *bad) except? -2:
        cdef Py_buffer view
        cdef const int32_t *acts = NULL
        cdef int rc
        if actions is not None:
            PyObject_GetBuffer(actions, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
            try:
                if view.len < 4 * self.n or not _is_int32(&view):
                    raise ValueError(f"actions: an int32 buffer of {self.n} items is needed")
                # a copy taken with the GIL held: C reads each action twice (legal? then apply), and
                # another Python thread could change the caller's array in between
                memcpy(self.acts, view.buf, sizeof(int32_t) * <size_t> self.n)
            finally:
                PyBuffer_Release(&view)
            acts = self.acts
        if not self.started:
            raise RuntimeError("reset the batch before stepping it")
        with nogil:
            rc = sr_batch_step_threads(&self.cg.g, self.states, self.stride, self.rng, acts, self.n, &self.out,
                                       bad, self.threads)
        return rc

    def state(self, i):
        """A copy of game i as a State (an empty move stack); i an integer in
        [0, n - 1] (TypeError, ValueError)."""
        cdef Py_ssize_t k = _index("i", i, 0, self.n - 1)
        self._check_idle()
        if not self.started:
            raise RuntimeError("reset the batch before reading its games")
        cdef CoreState st = self.cg._blank()
        memcpy(st.s.b, self.states + <size_t> k * self.stride, self.cg.g.info.state_size)
        st._mark_root()
        return st
