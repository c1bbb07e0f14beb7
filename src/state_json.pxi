# The games' JSON layer (included by _core.pyx): state dicts, views,
# notation and events are written and read by csrc/state_json.h, the one
# implementation the WebAssembly engine (csrc/wasm/tbw.c) calls too. This
# file only moves text between Python and C.
from state_json_c cimport (SR_MAX_JSON, sr_json_codec, sr_state_to_json, sr_fields_to_json, sr_parse_action, sr_state_from_json,
                           sr_params_from_json, sr_fields_from_json, sr_events_json)


cdef Py_ssize_t _node_marks(object tuples, int **out) except -1:
    """The preorder node numbers in tuples (plain_json's tuple marks) as a
    C array in *out (PyMem_Malloc'd, the caller frees it; NULL when there are
    none): their count."""
    cdef Py_ssize_t n = len(tuples), i
    out[0] = NULL
    if n == 0:
        return 0
    out[0] = <int *> PyMem_Malloc(n * sizeof(int))
    if out[0] == NULL:
        raise MemoryError()
    for i in range(n):
        out[0][i] = tuples[i]
    return n


def state_json(CoreState st, int viewer):
    """The state dict (viewer -1) or seat viewer's view of st as compact JSON
    text (csrc/state_json.h): what json.dumps(..., separators=(",", ":"))
    writes of to_dict() / view(viewer). The caller checks viewer."""
    cdef const sr_game *g = st._g()
    cdef char buf[SR_MAX_JSON]
    cdef int n = sr_state_to_json(st.core_game.d, g, st.s.b, viewer, buf, sizeof(buf))
    if n < 0:
        raise EngineError(f"the {st.core_game.title} state cannot be written as JSON (error {-n})")
    return buf[:n].decode("ascii")



def fields_json(CoreGame cg, fields, int viewer):
    """state_json of an int64 encoding (a list of ints, as CoreState._encode
    gives): the state dict (viewer -1) or a seat's view as JSON text.
    InvalidStateError if the list is not an encoding of cg's game."""
    cdef Py_ssize_t n = len(fields), i
    cdef int64_t buf[1024]
    cdef char out[SR_MAX_JSON]
    if n > SR_MAX_ENCODED:
        raise InvalidStateError(f"invalid {cg.title} state: {n} fields is more than a state has")
    for i in range(n):
        buf[i] = fields[i]
    cdef int k = sr_fields_to_json(cg.d, &cg.g, buf, <int> n, viewer, out, sizeof(out))
    if k < 0:
        raise InvalidStateError(f"invalid {cg.title} state: the fields are not an encoding of the game (error {-k})")
    return out[:k].decode("ascii")


def parse_action(CoreGame cg, str text, CoreState st=None):
    """The notation text as an action id of cg's game (csrc/state_json.h):
    (SR_OK, id, "") or (SR_E_NOTATION / SR_E_ILLEGAL, -1, message). st, a
    state of cg, resolves notation that needs the position; the id is not
    checked for legality here."""
    cdef bytes raw = text.encode("utf-8", "surrogatepass")
    cdef size_t n = len(raw)
    cdef size_t cap = 8 * n + 512
    cdef char *msg = <char *> PyMem_Malloc(cap)
    cdef int action = -1, rc
    cdef const void *state = NULL
    if msg == NULL:
        raise MemoryError()
    try:
        if st is not None:
            if st.core_game is not cg:
                raise ValueError("the state is not of this game")
            state = st.s.b
        rc = sr_parse_action(cg.d, &cg.g, state, raw, n, &action, msg, cap)
        return rc, action, ("" if rc == SR_OK else msg.decode("utf-8", "surrogateescape"))
    finally:
        PyMem_Free(msg)


def state_from_json(CoreGame cg, str text, int as_view_of, tuples):
    """A state of cg from the JSON text of a state dict (as_view_of -1) or of
    seat as_view_of's view, read and checked in C (csrc/state_json.h);
    tuples: the preorder nodes that were Python tuples. InvalidStateError
    with C's message on a bad one."""
    cdef bytes raw = text.encode("utf-8", "surrogatepass")
    cdef Py_ssize_t nt
    cdef int *tup = NULL
    cdef char msg[1024]
    cdef int rc
    cdef CoreState st = cg._blank()
    nt = _node_marks(tuples, &tup)
    try:
        msg[0] = 0
        rc = sr_state_from_json(cg.d, &cg.g, raw, len(raw), as_view_of, tup, <int> nt, st.s.b, msg, sizeof(msg))
    finally:
        PyMem_Free(tup)
    if rc == SR_E_NOMEM:
        raise MemoryError(msg.decode("utf-8", "surrogatepass"))
    if rc == SR_E_PARAM:
        raise ValueError(msg.decode("utf-8", "surrogatepass"))
    if rc != SR_OK:
        raise InvalidStateError(msg.decode("utf-8", "surrogatepass"))
    st._mark_root()
    return st


def fields_from_json(CoreGame cg, str text, tuples):
    """The int64 encoding a state dict's JSON gives (the C reader's shape
    and type checks only; the decoder does not judge it): a list of ints.
    InvalidStateError on a bad one."""
    cdef bytes raw = text.encode("utf-8", "surrogatepass")
    cdef Py_ssize_t nt
    cdef int *tup = NULL
    cdef int64_t out[1024]
    cdef int n = 0, rc
    cdef char msg[1024]
    nt = _node_marks(tuples, &tup)
    try:
        msg[0] = 0
        rc = sr_fields_from_json(cg.d, &cg.g, raw, len(raw), tup, <int> nt, out, &n, msg, sizeof(msg))
    finally:
        PyMem_Free(tup)
    if rc == SR_E_NOMEM:
        raise MemoryError(msg.decode("utf-8", "surrogatepass"))
    if rc != SR_OK:
        raise InvalidStateError(msg.decode("utf-8", "surrogatepass"))
    return [out[i] for i in range(n)]


def params_from_json(str name, str text, tuples):
    """The parameters a state dict's JSON names, read in C: {name: int} of
    the registry's parameters it gives (tuples: the preorder nodes that were
    Python tuples). InvalidStateError on a bad one."""
    cdef const sr_game_def *d = _find(name)
    cdef bytes raw = text.encode("utf-8", "surrogatepass")
    cdef Py_ssize_t nt
    cdef int *tup = NULL
    cdef int values[4]
    cdef int given[4]
    cdef char msg[1024]
    cdef int rc
    nt = _node_marks(tuples, &tup)
    msg[0] = 0
    try:
        rc = sr_params_from_json(d, raw, len(raw), tup, <int> nt, values, given, msg, sizeof(msg))
    finally:
        PyMem_Free(tup)
    if rc != SR_OK:
        raise InvalidStateError(msg.decode("utf-8", "surrogatepass"))
    return {d.params[k].name.decode(): values[k] for k in range(d.num_params) if given[k]}


def events_json(CoreState st, int action, int player):
    """What seat player sees happen when the player to move in st plays
    action (Game.public_events): the JSON array of events written in C
    (csrc/state_json.h). The caller checks the player and the action's
    legality; IllegalMoveError otherwise, st untouched."""
    cdef const sr_game *g = st._g()
    cdef char buf[SR_MAX_JSON]
    cdef int n = sr_events_json(st.core_game.d, g, st.s.b, action, player, buf, sizeof(buf))
    if n == -SR_E_TERMINAL or n == -SR_E_ILLEGAL or n == -SR_E_RANGE:
        raise IllegalMoveError(f"action {action} is not legal here")
    if n < 0:
        raise EngineError(f"the events cannot be written (error {-n})")
    return buf[:n].decode("ascii")


def game_facts(CoreGame cg):
    """What the front ends take from the registry rather than from a game's
    own code (the WebAssembly engine reads the same): the game's title, each
    parameter's kind (True: true/false) and whether determinize is exact."""
    cdef const sr_game_def *d = cg.d
    cdef const sr_json_codec *codec = <const sr_json_codec *> d.json
    return {"title": (<bytes> codec.title).decode("utf-8") if codec != NULL else None,
            "param_is_bool": [bool(d.params[k].is_bool) for k in range(d.num_params)],
            "exact_determinize": bool(cg.g.info.exact_determinize)}
