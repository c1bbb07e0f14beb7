# Declarations of csrc/game.h and csrc/search/search.h for Cython (one .pxd per C header pair).
from libc.stdint cimport uint64_t, int64_t, uint8_t, int32_t

cdef extern from "game.h" nogil:
    enum:
        SR_MAX_PLAYERS
        SR_MAX_LEGAL
        SR_MAX_STATE
        SR_MAX_ENCODED
        SR_MAX_PARAMS
        SR_MSG_LEN
        SR_TERMINAL
        SR_MAX_OBSERVATION
        SR_STATE_ALIGN
    enum:
        SR_OK
        SR_E_TERMINAL
        SR_E_PARAM
        SR_E_NOMEM
        SR_E_STATE
        SR_E_ILLEGAL
        SR_E_STOPPED
        SR_E_STUCK
        SR_E_RANGE
        SR_E_NOTATION

    ctypedef struct sr_state_buf:
        uint8_t b[1024]

    ctypedef struct sr_game_info:
        const char *name
        int num_players
        int num_distinct_actions
        double min_utility
        double max_utility
        int max_game_length
        int hidden_information
        size_t state_size
        int observation_size
        int constant_sum
        double utility_sum
        int exact_determinize

    ctypedef struct sr_game:
        sr_game_info info
        const void *rules
        int params[4]
        void (*new_initial_state)(const sr_game *g, void *state, uint64_t seed) noexcept nogil
        int (*current_player)(const void *rules, const void *state) noexcept nogil
        int (*legal_actions)(const void *rules, const void *state, int *buf) noexcept nogil
        void (*apply)(const void *rules, void *state, int action) noexcept nogil
        void (*returns)(const void *rules, const void *state, double *out) noexcept nogil
        void (*scores)(const void *rules, const void *state, int *out) noexcept nogil
        void (*determinize)(const void *rules, const void *state, int player, uint64_t seed, void *out) noexcept nogil
        uint64_t (*infostate_key)(const void *rules, const void *state, int player) noexcept nogil
        int (*action_to_string)(const void *rules, int action, char *buf, size_t n) noexcept nogil
        int (*encode)(const void *rules, const void *state, int64_t *out, int max) noexcept nogil
        int (*decode)(const void *rules, const int64_t *inp, int n, void *state, char *msg, size_t msg_len) noexcept nogil
        int (*decode_loose)(const void *rules, const int64_t *inp, int n, void *state, char *msg, size_t msg_len) noexcept nogil
        void (*observation)(const void *rules, const void *state, int player, float *out) noexcept nogil

    ctypedef struct sr_policy:
        int (*greedy_index)(const void *rules, const void *state, const int *legal, int n, uint64_t *rng) noexcept nogil
        double default_c
        int default_shaped
        int default_prior
        int default_horizon
        int default_control_variates

    ctypedef struct sr_param_spec:
        const char *name
        int min
        int max
        int default "def"
        int is_bool

    ctypedef struct sr_game_def:
        const char *name
        size_t rules_size
        int num_data
        const char *data_files[4]
        int (*load_rules)(void *rules, const char *const *texts, char *msg, size_t msg_len) noexcept nogil
        int num_params
        sr_param_spec params[4]
        int (*make)(const void *rules, const int *params, sr_game *g, char *msg, size_t msg_len) noexcept nogil
        const sr_policy *policy
        const void *json         # a const sr_json_codec * (state_json_c.pxd)

    int sr_game_count()
    const sr_game_def *sr_game_at(int i)
    const sr_game_def *sr_find_game(const char *name)

    int sr_apply_checked(const sr_game *g, void *state, int action)
    int sr_legal_mask(const sr_game *g, const void *state, uint8_t *mask)
    uint64_t sr_perft(const sr_game *g, const void *state, int depth, const volatile int *stop, int *rc)

    ctypedef struct sr_playout_stats:
        uint64_t games
        uint64_t actions
        uint64_t draws
        double returns_sum[5]
        uint64_t wins[5]
        int64_t score_sum[5]

    int sr_random_playouts(const sr_game *g, uint64_t n, uint64_t seed, const volatile int *stop, sr_playout_stats *out)


cdef extern from "search/search.h" nogil:
    enum:
        SR_MAX_THREADS
    int64_t SR_MAX_NODES

    ctypedef struct sr_evaluator:
        pass

    void sr_make_evaluator(const sr_policy *policy, int heuristic_rollout, int shaped, int prior, int horizon,
                           int control_variates, sr_evaluator *out)

    ctypedef struct sr_params:
        int kind
        uint64_t seed
        int64_t iterations
        double time_limit
        double c
        int rollout
        int threads
        int64_t max_nodes
        const volatile int *stop

    ctypedef struct sr_root_stat:
        int action
        int64_t visits
        double mean

    ctypedef struct sr_result:
        int n
        sr_root_stat stats[1024]
        int64_t iterations
        int64_t nodes
        int pool_full
        int stopped
        int best

    int sr_search(const sr_game *g, const sr_evaluator *ev, const void *root, const sr_params *p, sr_result *out)


cdef extern from "game.h" nogil:
    int sr_run_polled(void (*work)(void *) noexcept nogil, void *arg, volatile int *stop, const volatile int *external,
                      int (*poll)(void *) noexcept, void *ctx, int poll_ms, int *polled)


cdef extern from "batch.h" nogil:
    ctypedef struct sr_batch_own:
        int32_t *legal
        int32_t *num_legal
        int32_t *length
        uint8_t *done

    ctypedef struct sr_batch_out:
        float *obs
        uint8_t *mask
        float *rewards
        uint8_t *done
        int32_t *player
        int32_t *length
        int32_t *legal
        int32_t *num_legal
        int legal_cap
        sr_batch_own own

    void sr_batch_reset(const sr_game *g, void *states, size_t stride, uint64_t *rng, int first, int count,
                        const sr_batch_out *out)
    void sr_batch_refresh(const sr_game *g, const void *states, size_t stride, int first, int count,
                          const sr_batch_out *out)
    int sr_batch_step(const sr_game *g, void *states, size_t stride, uint64_t *rng, const int32_t *actions,
                      int first, int count, const sr_batch_out *out, int *bad)
    int sr_batch_step_threads(const sr_game *g, void *states, size_t stride, uint64_t *rng, const int32_t *actions,
                              int n, const sr_batch_out *out, int *bad, int threads)
