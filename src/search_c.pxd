# Declarations of csrc/search/search.h and games.h for Cython.
from libc.stdint cimport uint64_t
from capivarias_c cimport cv_rules, cv_state
from capulana_c cimport cp_rules, cp_state

cdef extern from "search/search.h" nogil:
    enum:
        SR_MAX_LEGAL
    ctypedef struct sr_game:
        pass
    ctypedef struct sr_params:
        int kind
        uint64_t seed
        long iterations
        double time_limit
        double c
        int rollout
        int threads
        long max_nodes
    ctypedef struct sr_root_stat:
        int action
        long visits
        double mean
    ctypedef struct sr_result:
        int n
        sr_root_stat stats[1024]
        long iterations
        long nodes
        int pool_full
        int best
    int sr_search(const sr_game *g, const void *root, const sr_params *p, sr_result *out)

cdef extern from "search/games.h" nogil:
    void cv_search_game(const cv_rules *r, sr_game *g)
    int cv_greedy_index(const cv_rules *r, const cv_state *s, const int *legal, int n, uint64_t *rng)
    void cp_search_game(const cp_rules *r, sr_game *g)
    int cp_greedy_index(const cp_rules *r, const cp_state *s, const int *legal, int n, uint64_t *rng)
