# The games' JSON layer (included by _core.pyx): state dicts, views,
# notation and events are written and read by csrc/state_json.h, the one
# implementation the WebAssembly engine (csrc/wasm/tbw.c) calls too. This
# file only moves text between Python and C.
from state_json_c cimport SR_MAX_JSON, sr_state_to_json, sr_fields_to_json, sr_parse_action


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
