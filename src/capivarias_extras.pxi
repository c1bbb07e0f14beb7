# Capivárias' own part of the binding (included by _core.pyx): the river as
# it stood when a round was scored. Everything else goes through the contract.
from capivarias_c cimport cv_rules, cv_state, cv_apply_round_end

cdef const sr_game_def *CV_DEF = sr_find_game(b"capivarias")


cdef inline cv_state *_cv(CoreState st) except NULL:
    st._g()
    if st.core_game.d != CV_DEF:
        raise TypeError(f"a Capivárias state is needed, not a {st.core_game.name} one")
    return <cv_state *> st.s.b


def capivarias_apply_round_end(CoreState st, int action):
    """Apply a legal action (pushed on the stack); if it ended a round, return
    the state as it stood when that round was scored (a new state with an
    empty stack), else None. IllegalMoveError (state untouched) if not legal."""
    cdef cv_state *s = _cv(st)
    if action not in st.legal_actions():
        raise IllegalMoveError(f"illegal move {st.core_game.action_to_string(action)!r} (id {action})")
    cdef CoreState river = st.core_game._blank()
    st._reserve_push()   # room first: nothing fails after the move
    memset(river.s.b, 0, sizeof(cv_state))
    cdef int ended = cv_apply_round_end(<const cv_rules *> st.core_game.g.rules, s, action, <cv_state *> river.s.b)
    st._record(action)
    if ended:
        river._mark_root()
        return river
    return None
