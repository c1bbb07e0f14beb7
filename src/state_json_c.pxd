# Declarations of csrc/state_json.h for Cython: the games' JSON layer in C.
from libc.stdint cimport int64_t
from game_c cimport sr_game, sr_game_def

cdef extern from "state_json.h" nogil:
    enum:
        SR_MAX_JSON
    ctypedef struct sr_json_codec:
        const char *title
    int sr_state_to_json(const sr_game_def *d, const sr_game *g, const void *state, int viewer, char *buf, size_t n)
    int sr_fields_to_json(const sr_game_def *d, const sr_game *g, const int64_t *enc, int n, int viewer, char *buf,
                          size_t len)
    int sr_state_from_json(const sr_game_def *d, const sr_game *g, const char *text, size_t len, int as_view_of,
                           const int *tuples, int n_tuples, void *state, char *msg, size_t msg_len)
    int sr_fields_from_json(const sr_game_def *d, const sr_game *g, const char *text, size_t len, const int *tuples,
                            int n_tuples, int64_t *out, int *n_out, char *msg, size_t msg_len)
    int sr_params_from_json(const sr_game_def *d, const char *text, size_t len, const int *tuples, int n_tuples,
                            int *values, int *given, char *msg, size_t msg_len)
    int sr_events_json(const sr_game_def *d, const sr_game *g, const void *state, int action, int player, char *buf,
                       size_t n)
    int sr_parse_action(const sr_game_def *d, const sr_game *g, const void *state, const char *text, size_t len,
                        int *action, char *msg, size_t msg_len)
