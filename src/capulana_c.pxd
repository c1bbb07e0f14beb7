# Declarations of csrc/capulana.h for Cython (one .pxd per C header).
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int16_t, int32_t

cdef extern from "capulana.h" nogil:
    enum:
        CP_MAX_PLAYERS
        CP_NFABRIC
        CP_NCARDS
        CP_NOBJECTIVES
        CP_NUM_ACTIONS
        CP_MAX_ACTIONS
        CP_MAX_ROW
        CP_MAX_STRIPS
        CP_NAME_LEN
        CP_NONE
        CP_PHASE_OFFER
        CP_PHASE_WEAVE
        CP_PHASE_OVER

    ctypedef struct cp_card_def:
        char name[8]
        uint8_t kind
        uint8_t black
        uint8_t value
        uint8_t nstrips
        uint8_t colour[4]
        uint8_t pattern[4]

    ctypedef struct cp_objective_def:
        char name[8]
        uint8_t points
        uint8_t key

    ctypedef struct cp_rules:
        cp_card_def card[61]
        uint64_t fabric_mask
        uint64_t black_mask
        uint64_t purple_mask
        uint64_t clean_mask

    ctypedef struct cp_strips:
        uint64_t pl[6]

    ctypedef struct cp_state:
        uint64_t rng
        uint64_t hold[5]
        uint64_t offered
        uint64_t second
        uint64_t known
        cp_strips row[5]
        uint8_t rcard[5][12]
        uint8_t place[28]
        uint8_t deck[56]
        uint8_t deck_top
        uint8_t deck_n
        uint8_t slots[5]
        uint8_t offer_slot[10]
        uint8_t n_offers
        uint8_t open
        uint8_t rlen[5]
        uint8_t nstrips[5]
        uint8_t v[5]
        uint8_t woven[5]
        uint8_t weave_done
        uint8_t players
        uint8_t round
        uint8_t start
        uint8_t phase
        uint8_t to_move
        uint16_t objectives

    ctypedef struct cp_weave_option:
        cp_strips row
        int32_t next
        uint32_t hash
        int16_t actions[3]
        uint8_t n_actions
        uint8_t ncards
        uint8_t nstrips
        uint8_t v
        int16_t score
        int16_t final_score

    ctypedef struct cp_set:
        uint8_t kind
        uint8_t symbol
        uint8_t start
        uint8_t length

    int cp_rules_init(cp_rules *r, const cp_card_def *cards, const cp_objective_def *objs)
    void cp_new_game(const cp_rules *r, cp_state *s, int players, uint64_t seed)
    int cp_is_terminal(const cp_state *s)
    int cp_offerer(const cp_state *s, int k)
    int cp_legal_actions(const cp_rules *r, const cp_state *s, int *buf)
    int cp_is_legal(const cp_rules *r, const cp_state *s, int action)
    void cp_apply(const cp_rules *r, cp_state *s, int action)
    int cp_apply_checked(const cp_rules *r, cp_state *s, int action)
    int cp_row_score(const cp_strips *row, int nstrips)
    void cp_scores(const cp_rules *r, const cp_state *s, int *out)
    void cp_returns(const cp_rules *r, const cp_state *s, double *out)
    int cp_action_to_string(const cp_rules *r, int action, char *buf, size_t n)
    int cp_replay_row(const cp_rules *r, cp_state *s, int p)
    int cp_place_of(const cp_state *s, int c)
    void cp_set_place(cp_state *s, int c, int q)
    uint64_t cp_woven_mask(const cp_state *s, int p)
    int cp_holder(const cp_state *s, int c)
    void cp_determinize(const cp_rules *r, const cp_state *s, int player, uint64_t seed, cp_state *out)
    uint64_t cp_infostate_key(const cp_rules *r, const cp_state *s, int player)
    int cp_weaving_options(const cp_rules *r, const cp_state *s, cp_weave_option *out, int max)
    int cp_score_sets(const uint8_t *colour, const uint8_t *pattern, int n, cp_set *out, int max, int *total)
    int cp_row_strips(const cp_state *s, int p, uint8_t *colour, uint8_t *pattern)
    uint16_t cp_objectives_met(const cp_rules *r, uint16_t objectives, const uint8_t *colour, const uint8_t *pattern,
                               int n, int rlen, int hand)
    int cp_check(const cp_rules *r, const cp_state *s, char *msg, size_t n)
