# Declarations of csrc/capivarias.h for Cython (one .pxd per C header).
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int8_t

cdef extern from "capivarias.h" nogil:
    enum:
        CV_MAX_CARDS
        CV_NONE
        CV_SEGMENTS
        CV_MAX_ACTIONS
        CV_NAME_LEN

    ctypedef struct cv_card_def:
        char name[8]
        uint8_t kind
        uint8_t herd
        int8_t number
        int8_t modifier
        uint8_t expansion

    ctypedef struct cv_rules:
        int ncards
        int num_actions
        cv_card_def card[32]
        uint32_t herd_mask[4]
        uint32_t capybara_mask
        uint32_t capiolin_mask
        uint32_t capitico_mask
        uint32_t base_mask
        uint32_t all_mask
        uint8_t capitico_of[4]

    ctypedef struct cv_state:
        uint64_t rng
        uint32_t side[3][2]
        uint32_t discard
        uint8_t river[3]
        uint8_t capionca[3]
        uint8_t avail[4]
        uint8_t n_avail
        uint8_t pile_top
        uint8_t n_pile
        uint8_t round
        uint8_t wins[2]
        uint8_t to_move
        uint8_t last_taker
        uint8_t winner
        uint8_t expansion
        uint8_t pile[32]

    int cv_rules_init(cv_rules *r, const cv_card_def *defs, int n)
    void cv_new_game(const cv_rules *r, cv_state *s, uint64_t seed, int expansion, int first_player)
    uint32_t cv_game_mask(const cv_rules *r, const cv_state *s)
    int cv_is_terminal(const cv_state *s)
    int cv_legal_actions(const cv_rules *r, const cv_state *s, int *buf)
    void cv_apply(const cv_rules *r, cv_state *s, int action)
    int cv_apply_round_end(const cv_rules *r, cv_state *s, int action, cv_state *river)
    int cv_apply_checked(const cv_rules *r, cv_state *s, int action)
    void cv_scores(const cv_rules *r, const cv_state *s, int out[2])
    void cv_returns(const cv_state *s, double out[2])
    int cv_decode(const cv_rules *r, int action, int *card, int *seg, int *target)
    int cv_encode(const cv_rules *r, int card, int seg, int target)
    int cv_action_to_string(const cv_rules *r, int action, char *buf, size_t n)
    void cv_determinize(const cv_rules *r, const cv_state *s, int player, uint64_t seed, cv_state *out)
    uint64_t cv_infostate_key(const cv_rules *r, const cv_state *s, int player)
    int cv_check(const cv_rules *r, const cv_state *s, char *msg, size_t n)

